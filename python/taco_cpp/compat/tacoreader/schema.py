"""``PITSchema`` (tacoreader.schema): the position-isomorphic tree schema of a dataset."""

from ..._pit import PitSchema as _PitSchema
from ._exceptions import TacoSchemaError


class PITSchema(_PitSchema):
    """``root`` ({"n", "type"}), ``hierarchy`` ({"1": [patterns]}), ``max_depth()``,
    ``is_compatible()``, ``with_n()``, ``to_dict()``."""

    def __init__(self, schema_dict: dict):
        # as upstream: a missing key is a KeyError
        root, hierarchy = schema_dict["root"], schema_dict["hierarchy"]
        root_type = root.get("type")
        if root_type not in ("FILE", "FOLDER"):
            raise TacoSchemaError(f"Invalid root type: {root_type}\nMust be 'FILE' or 'FOLDER'")
        for depth, patterns in hierarchy.items():
            if not str(depth).isdigit():
                raise TacoSchemaError(f"Invalid depth key: {depth}\nDepth keys must be numeric strings")
            for i, p in enumerate(patterns):
                types, ids = p.get("type"), p.get("id")
                if not types or not ids or len(types) != len(ids):
                    raise TacoSchemaError(f"Depth {depth}, pattern {i}: 'type' and 'id' must be non-empty "
                                          f"arrays of one length")
                for child in types:
                    if child not in ("FILE", "FOLDER"):
                        raise TacoSchemaError(f"Depth {depth}, pattern {i}: invalid type '{child}'")
        super().__init__(schema_dict)

    def with_n(self, new_n: int) -> "PITSchema":
        d = self.to_dict()
        d["root"]["n"] = new_n
        return PITSchema(d)


__all__ = ["PITSchema"]
