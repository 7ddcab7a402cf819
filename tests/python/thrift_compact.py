"""Reading Thrift compact-protocol integers (Parquet footers and page headers) in tests."""


def varint(b: bytes, pos: int) -> tuple[int, int]:
    """The unsigned varint at `pos` and the position after it."""
    out = shift = 0
    while True:
        x = b[pos]
        pos += 1
        out |= (x & 0x7F) << shift
        shift += 7
        if not x & 0x80:
            return out, pos


def zigzag(n: int) -> int:
    return (n >> 1) ^ -(n & 1)
