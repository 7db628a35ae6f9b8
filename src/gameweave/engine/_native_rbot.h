/* The gameweave `random` bot in C (issue 21), exactly as bots/base.py's RandomBot decides:
 * uniform over the seat's legal engine actions, drawn by
 *     random.Random(f"{seed}#{view_key(view)}").choice(view.legal)
 * (a lone legal action is played without drawing, Bot.choose).  That means the view key's
 * text (bots/base.py view_key: seat, hand, melds, centre, live_from, stock count, dead,
 * hand counts, forced, the public history), CPython's seeding of a str (version 2: the
 * text's bytes then their SHA-512, read as one big-endian int, whose 32-bit words seed
 * the Mersenne Twister by init_by_array) and random.choice's _randbelow.  It sees only the
 * seat's view fields (R21).  Included once, by _native.c, after _native_research.h. */
#ifndef GAMEWEAVE_NATIVE_RBOT_H
#define GAMEWEAVE_NATIVE_RBOT_H

/* ------------------------------------------------------------------ SHA-512 (FIPS 180-4) */
static const uint64_t SHA_K[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL,
    0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL, 0x12835b0145706fbeULL,
    0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL, 0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL, 0x983e5152ee66dfabULL,
    0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL,
    0x53380d139d95b3dfULL, 0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL, 0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL,
    0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL,
    0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL, 0xca273eceea26619cULL,
    0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL,
    0x113f9804bef90daeULL, 0x1b710b35131c471bULL, 0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

#define ROR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

static void sha512_block(uint64_t *h, const uint8_t *p) {
    uint64_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 16; i++) {
        uint64_t v = 0;
        for (int j = 0; j < 8; j++) v = v << 8 | p[8 * i + j];
        w[i] = v;
    }
    for (int i = 16; i < 80; i++) {
        uint64_t s0 = ROR64(w[i - 15], 1) ^ ROR64(w[i - 15], 8) ^ (w[i - 15] >> 7);
        uint64_t s1 = ROR64(w[i - 2], 19) ^ ROR64(w[i - 2], 61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    for (int i = 0; i < 80; i++) {
        uint64_t t1 = hh + (ROR64(e, 14) ^ ROR64(e, 18) ^ ROR64(e, 41)) + ((e & f) ^ (~e & g)) + SHA_K[i] + w[i];
        uint64_t t2 = (ROR64(a, 28) ^ ROR64(a, 34) ^ ROR64(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

static void sha512(const uint8_t *msg, size_t len, uint8_t *digest) {
    uint64_t h[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
                     0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    size_t i = 0;
    for (; i + 128 <= len; i += 128) sha512_block(h, msg + i);
    uint8_t last[256];
    size_t rest = len - i, tail = rest < 112 ? 128 : 256;
    memset(last, 0, sizeof(last));
    memcpy(last, msg + i, rest);
    last[rest] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int j = 0; j < 8; j++) last[tail - 1 - j] = (uint8_t)(bits >> (8 * j));
    sha512_block(h, last);
    if (tail == 256) sha512_block(h, last + 128);
    for (int j = 0; j < 64; j++) digest[j] = (uint8_t)(h[j >> 3] >> (56 - 8 * (j & 7)));
}

/* ------------------------------------------------------------------ the view key */
static int put_melds(char *s, const GS *g, int seat) {  /* str() of a tuple of ints: "(7,)", "(7, 112)", "()" */
    int n = g->nmelds[seat], at = 0;
    s[at++] = '(';
    for (int i = 0; i < n; i++) {
        if (i) { s[at++] = ','; s[at++] = ' '; }
        at += put_u64(s + at, g->melds[seat][i]);
    }
    if (n == 1) s[at++] = ',';
    s[at++] = ')';
    return at;
}

/* f"{seed}#{view_key(view)}" for the seat (bots/base.py view_key); its length, or -1 if
 * it does not fit in cap bytes.  The fields before the history take at most 400 bytes. */
static int view_key_text(const RD *d, int seat, uint64_t seed, char *s, int cap) {
    const GS *g = &d->g;
    if (400 + d->hlen >= cap) return -1;
    int at = put_u64(s, seed);
    s[at++] = '#';
    s[at++] = (char)('0' + seat);
    s[at++] = '|';
    at += put_u64(s + at, g->hands[seat]);
    s[at++] = '|';
    s[at++] = '(';
    at += put_melds(s + at, g, 0);
    s[at++] = ',';
    s[at++] = ' ';
    at += put_melds(s + at, g, 1);
    s[at++] = ')';
    const long long fields[8] = {g->card, g->live_from, 40 - g->stock_pos, (long long)g->dead,
                                 popc(g->hands[0]), popc(g->hands[1]), g->forced, 0};
    for (int k = 0; k < 7; k++) {
        s[at++] = '|';
        if (k == 4) s[at++] = '(';
        at += put_int(s + at, fields[k]);
        if (k == 4) { s[at++] = ','; s[at++] = ' '; at += put_int(s + at, fields[++k]); s[at++] = ')'; }
    }
    s[at++] = '|';
    memcpy(s + at, d->hist, (size_t)d->hlen);
    return at + d->hlen;
}

/* ------------------------------------------------------------------ seeding, then one draw */
/* random.Random(key)._randbelow(n), the first draw after init_by_array: the same as
 * mt_init_by_array then mt_below, with two shortcuts that change no value: the state that
 * mt_init(19650218) makes is computed once, and the first outputs are twisted one by one
 * (output k < 227 of the first twist reads only the seeded words k, k + 1 and k + 397)
 * instead of twisting all 624 words. */
static uint32_t MT_BASE[624];
static int MT_BASE_OK = 0;

static int mt_seeded_below(const uint32_t *key, int len, int n) {
    static MT m;
    if (!MT_BASE_OK) { mt_init(&m, 19650218U); memcpy(MT_BASE, m.mt, sizeof(MT_BASE)); MT_BASE_OK = 1; }
    uint32_t *mt = m.mt;
    memcpy(mt, MT_BASE, sizeof(MT_BASE));
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++; j++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
        if (j >= len) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000U;
    int bits = 0;
    while ((n >> bits) != 0) bits++;
    for (int k = 0; k < 227; k++) {  /* mt_below's rejection loop on the first twist's outputs */
        uint32_t y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU);
        y = mt[k + 397] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= y >> 18;
        uint32_t r = y >> (32 - bits);
        if ((int)r < n) return (int)r;
    }
    m.i = 624;  /* (never in practice: 227 rejections in a row) the plain way */
    mt_init_by_array(&m, key, len);
    return mt_below(&m, n);
}

#define KEY_WORDS ((HIST_MAX + 512 + 64) / 4 + 1)

/* the seed words of random.Random(f"{seed}#{view_key(view)}") for the seat to act
 * (CPython's seeding of a str: its bytes then their SHA-512, one big-endian int, whose
 * 32-bit words, lowest first, go to init_by_array) into key (KEY_WORDS); their count, or
 * -1 if the view key does not fit */
static int random_bot_key(const RD *d, uint64_t seed, uint32_t *key) {
    static uint8_t buf[HIST_MAX + 512 + 64];
    int len = view_key_text(d, d->g.to_act, seed, (char *)buf, HIST_MAX + 512);
    if (len < 0) return -1;
    sha512(buf, (size_t)len, buf + len);
    len += 64;
    int words = (len + 3) / 4;  /* the first byte is a digit: the int has exactly these words */
    for (int i = 0; i < words; i++) {
        uint32_t w = 0;
        int hi = len - 4 * i, lo = hi - 4 < 0 ? 0 : hi - 4;
        for (int b = lo; b < hi; b++) w = w << 8 | buf[b];
        key[i] = w;
    }
    return words;
}

/* RandomBot.choose for the seat to act: the index into the engine's legal actions, or -1
 * (out of memory, or a view key too long) */
static int random_bot_pick(RD *d, uint64_t seed) {
    if (rd_engine_legal(d) < 0) return -1;
    int n = d->legal.n;
    if (n == 1) return 0;
    static uint32_t key[KEY_WORDS];
    int words = random_bot_key(d, seed, key);
    return words < 0 ? -1 : mt_seeded_below(key, words, n);
}

/* mt_seeded_below for LANES keys of at most 624 words at once: the seeding chains side by
 * side (each is a serial chain of multiplications; interleaved, the processor runs them in
 * parallel, and the compiler packs the lanes into vector registers).  The same values as
 * LANES calls of mt_seeded_below.  Compiled twice: for the baseline instruction set and,
 * on x86-64 with GCC or Clang, for AVX2 (chosen at run time where the processor has it). */
#define LANES 8
static inline __attribute__((always_inline)) void seed_lanes(uint32_t *const keys[LANES], const int lens[LANES],
                                                             const int ns[LANES], int out[LANES]) {
    static uint32_t mt[624][LANES], add[624][LANES];
    if (!MT_BASE_OK) { MT m; mt_init(&m, 19650218U); memcpy(MT_BASE, m.mt, sizeof(MT_BASE)); MT_BASE_OK = 1; }
    for (int k = 0; k < 624; k++)
        for (int l = 0; l < LANES; l++) mt[k][l] = MT_BASE[k];
    static uint32_t ex[LANES][624];
    for (int l = 0; l < LANES; l++) {  /* what step k of the first loop adds: key[j] + j, j = k mod len */
        int len = lens[l];
        for (int j = 0; j < len; j++) ex[l][j] = keys[l][j] + (uint32_t)j;
        for (int k = len; k < 624; k += len) memcpy(ex[l] + k, ex[l], sizeof(uint32_t) * (size_t)(k + len <= 624 ? len : 624 - k));
    }
    for (int k = 0; k < 624; k++)
        for (int l = 0; l < LANES; l++) add[k][l] = ex[l][k];
    /* every len <= 624: the first loop takes 624 steps, i = 1..623 then 1 (mt[0] = mt[623]
     * at the wrap); the second 623, i = 2..623 then 1 */
    for (int i = 1; i < 624; i++)
        for (int l = 0; l < LANES; l++)
            mt[i][l] = (mt[i][l] ^ ((mt[i - 1][l] ^ (mt[i - 1][l] >> 30)) * 1664525U)) + add[i - 1][l];
    for (int l = 0; l < LANES; l++) {
        mt[0][l] = mt[623][l];
        mt[1][l] = (mt[1][l] ^ ((mt[0][l] ^ (mt[0][l] >> 30)) * 1664525U)) + add[623][l];
    }
    for (int i = 2; i < 624; i++)
        for (int l = 0; l < LANES; l++)
            mt[i][l] = (mt[i][l] ^ ((mt[i - 1][l] ^ (mt[i - 1][l] >> 30)) * 1566083941U)) - (uint32_t)i;
    for (int l = 0; l < LANES; l++) {
        mt[0][l] = mt[623][l];
        mt[1][l] = (mt[1][l] ^ ((mt[0][l] ^ (mt[0][l] >> 30)) * 1566083941U)) - 1U;
        mt[0][l] = 0x80000000U;
        int bits = 0, n = ns[l];
        while ((n >> bits) != 0) bits++;
        out[l] = -1;
        for (int k = 0; k < 227 && out[l] < 0; k++) {  /* mt_below on the first twist's outputs */
            uint32_t y = (mt[k][l] & 0x80000000U) | (mt[k + 1][l] & 0x7fffffffU);
            y = mt[k + 397][l] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
            y ^= y >> 11;
            y ^= (y << 7) & 0x9d2c5680U;
            y ^= (y << 15) & 0xefc60000U;
            y ^= y >> 18;
            uint32_t r = y >> (32 - bits);
            if ((int)r < n) out[l] = (int)r;
        }
        if (out[l] < 0) out[l] = mt_seeded_below(keys[l], lens[l], n);
    }
}

static void seed_lanes_base(uint32_t *const keys[LANES], const int lens[LANES], const int ns[LANES], int out[LANES]) {
    seed_lanes(keys, lens, ns, out);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(GAMEWEAVE_NO_AVX2)
__attribute__((target("avx2"))) static void seed_lanes_avx2(uint32_t *const keys[LANES], const int lens[LANES],
                                                            const int ns[LANES], int out[LANES]) {
    seed_lanes(keys, lens, ns, out);
}
#endif

static void mt_seeded_below_lanes(uint32_t *const keys[LANES], const int lens[LANES], const int ns[LANES],
                                  int out[LANES]) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(GAMEWEAVE_NO_AVX2)
    static int avx2 = -1;
    if (avx2 < 0) avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    if (avx2) { seed_lanes_avx2(keys, lens, ns, out); return; }
#endif
    seed_lanes_base(keys, lens, ns, out);
}

#endif
