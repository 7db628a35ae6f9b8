"""The storage layer's error."""


class StorageError(Exception):
    """A write that the database refused (e.g. a second writer for the same step)."""


__all__ = ["StorageError"]
