"""tacoreader.schema.PITSchema: a child type that is neither FILE nor FOLDER, a pattern without type or id,
empty arrays and arrays of different lengths are refused (exception class and message)."""
# parity: R49 (PARITY.md, tacoreader 2.4.21; found by tacoreader's own tests on compat)
import diffkit
from tacoreader.schema import PITSchema

root = {"n": 2, "type": "FOLDER"}
out = {
    "bad_child": diffkit.run(PITSchema, {"root": root, "hierarchy": {"1": [{"type": ["BADTYPE"], "id": ["a"]}]}}),
    "no_id": diffkit.run(PITSchema, {"root": root, "hierarchy": {"1": [{"type": ["FILE"]}]}}),
    "empty_type": diffkit.run(PITSchema, {"root": root, "hierarchy": {"1": [{"type": [], "id": ["a"]}]}}),
    "empty_id": diffkit.run(PITSchema, {"root": root, "hierarchy": {"1": [{"type": ["FILE"], "id": []}]}}),
    "lengths": diffkit.run(PITSchema, {"root": root, "hierarchy": {"1": [{"type": ["FILE"], "id": ["a", "b"]}]}}),
    "good_child": diffkit.run(lambda d: PITSchema(d).max_depth(),
                              {"root": root, "hierarchy": {"1": [{"type": ["FILE", "FOLDER"], "id": ["a", "b"]}]}}),
}
diffkit.emit(out)
