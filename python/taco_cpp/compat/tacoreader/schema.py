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
                where = f"Depth {depth}, pattern {i}"
                if "type" not in p or "id" not in p:
                    raise TacoSchemaError(f"{where}: missing required field\nPatterns must have both 'type' and 'id'")
                types, ids = p["type"], p["id"]
                if not types:
                    raise TacoSchemaError(f"{where}: type array empty")
                if not ids:
                    raise TacoSchemaError(f"{where}: id array empty")
                if len(types) != len(ids):
                    raise TacoSchemaError(f"{where}: type and id arrays differ\nType: {len(types)}, ID: {len(ids)}")
                for child in types:
                    if child not in ("FILE", "FOLDER"):
                        raise TacoSchemaError(f"{where}: invalid type '{child}'")
        super().__init__(schema_dict)

    def with_n(self, new_n: int) -> "PITSchema":
        d = self.to_dict()
        d["root"]["n"] = new_n
        return PITSchema(d)


__all__ = ["PITSchema"]
