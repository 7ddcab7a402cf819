"""tacoreader.v1.load_metadata (the COLLECTION of a TACO v1 file) and the errors of load."""
# A Tortilla has no COLLECTION, a TACO 2.0 ZIP is not a legacy file, a missing path, a wrong
# argument type.
# inputs: legacy, flat_zip
# parity: R61, R62
import sys

import diffkit
import tacoreader.v1 as v1

W = sys.argv[1]
diffkit.emit({
    "collection": v1.load_metadata(f"{W}/legacy/nested.taco"),
    "collection_list": v1.load_metadata([f"{W}/legacy/nested.taco"]),
    "tortilla": diffkit.run(v1.load_metadata, f"{W}/legacy/flat.tortilla"),
    "zip_load": diffkit.run(v1.load, f"{W}/flat.tacozip"),
    "missing": diffkit.run(v1.load, f"{W}/legacy/none.taco"),
    "bad_type": diffkit.run(v1.load, 42),
    "bad_type_metadata": diffkit.run(v1.load_metadata, 42),
})
