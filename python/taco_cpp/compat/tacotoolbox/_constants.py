"""Constants of tacotoolbox 0.26.9 that user code reads (names kept)."""

import re

SHARED_CORE_FIELDS = ("id", "type", "path")
VALID_KEY_PATTERN = re.compile(r"^[a-zA-Z0-9_]+(:\w+)?$")
METADATA_CURRENT_ID = "internal:current_id"
METADATA_PARENT_ID = "internal:parent_id"
SHARED_MAX_DEPTH = 5
TACOCAT_FOLDER_NAME = ".tacocat"
FOLDER_DATA_DIR = "DATA"
FOLDER_METADATA_DIR = "METADATA"
RESERVED_FOLDER_NAMES = frozenset({TACOCAT_FOLDER_NAME, FOLDER_DATA_DIR, FOLDER_METADATA_DIR})
