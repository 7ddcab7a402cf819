"""Arrow C streams from the C++ core to pyarrow (the Arrow PyCapsule interface)."""

class _CapsuleStream:
    """An object exposing one ``arrow_array_stream`` capsule through ``__arrow_c_stream__``."""

    __slots__ = ("_capsule",)

    def __init__(self, capsule):
        self._capsule = capsule

    def __arrow_c_stream__(self, requested_schema=None):  # noqa: ARG002 - schema is fixed
        capsule, self._capsule = self._capsule, None
        if capsule is None:
            raise RuntimeError("the Arrow stream was already consumed")
        return capsule


def table_from_capsule(capsule):
    """The whole stream as a pyarrow Table (buffers imported, not copied)."""
    import pyarrow as pa  # imported on first use: `import taco_cpp` stays light

    return pa.RecordBatchReader.from_stream(_CapsuleStream(capsule)).read_all()
