"""The constants of tacoreader 2.4.21 (``tacoreader._constants``), same names and values:
user code and upstream's tests import them (column names, view prefixes, backends, the
navigation columns per format)."""

from typing import Literal

DataFrameBackend = Literal["pyarrow", "polars", "pandas"]
DEFAULT_DATAFRAME_BACKEND: DataFrameBackend = "pyarrow"
AVAILABLE_BACKENDS: tuple = ("pyarrow", "polars", "pandas")

# storage URL scheme and GDAL virtual file system prefix per protocol
PROTOCOL_MAPPINGS = {
    "s3": {"standard": "s3://", "vsi": "/vsis3/"},
    "gcs": {"standard": "gs://", "vsi": "/vsigs/"},
    "azure": {"standard": "az://", "vsi": "/vsiaz/", "alt": "azure://"},
    "oss": {"standard": "oss://", "vsi": "/vsioss/"},
    "swift": {"standard": "swift://", "vsi": "/vsiswift/"},
    "http": {"standard": "http://", "vsi": "/vsicurl/"},
    "https": {"standard": "https://", "vsi": "/vsicurl/"},
}
CLOUD_PROTOCOLS = tuple([m["standard"] for m in PROTOCOL_MAPPINGS.values()]
                        + [m["alt"] for m in PROTOCOL_MAPPINGS.values() if "alt" in m])
VSI_PROTOCOLS = tuple(m["vsi"] for m in PROTOCOL_MAPPINGS.values())
VSI_SPECIAL = ("/vsizip/", "/vsisubfile/")
ALL_VSI_PREFIXES = VSI_PROTOCOLS + VSI_SPECIAL

TACOZIP_EXTENSIONS = (".tacozip", ".zip")
COLLECTION_JSON = "COLLECTION.json"

SAMPLE_TYPE_FILE = "FILE"
SAMPLE_TYPE_FOLDER = "FOLDER"
VALID_SAMPLE_TYPES = frozenset({SAMPLE_TYPE_FILE, SAMPLE_TYPE_FOLDER})

METADATA_PARENT_ID = "internal:parent_id"
METADATA_CURRENT_ID = "internal:current_id"
METADATA_OFFSET = "internal:offset"
METADATA_SIZE = "internal:size"
METADATA_RELATIVE_PATH = "internal:relative_path"
METADATA_GDAL_VSI = "internal:gdal_vsi"
METADATA_SOURCE_FILE = "internal:source_file"
METADATA_SOURCE_PATH = "internal:source_path"
COLUMN_ID = "id"
COLUMN_TYPE = "type"

# columns that navigation and raster access depend on
PROTECTED_COLUMNS = frozenset({COLUMN_ID, COLUMN_TYPE, METADATA_PARENT_ID, METADATA_OFFSET, METADATA_SIZE,
                               METADATA_GDAL_VSI, METADATA_SOURCE_FILE, METADATA_SOURCE_PATH,
                               METADATA_RELATIVE_PATH})

TACOCAT_FOLDER_NAME = ".tacocat"

DEFAULT_VIEW_NAME = "data"          # the level-0 rows in SQL
LEVEL_VIEW_PREFIX = "level"         # level0 … levelN: one level's rows
FLAT_VIEW_PREFIX = "l"              # l0 … lN: a level with its ancestors, columns "lK:<col>"
LEVEL_TABLE_SUFFIX = "_table"
UNION_VIEW_SUFFIX = "_union"
SQL_JOIN_PATTERN = r"\b(?:JOIN|FROM)\s+(level[1-5])\b"
FLAT_JOIN_PATTERN = r"\b(?:JOIN|FROM)\s+(l[1-5])\b"

STATS_GEOTIFF_COLUMN = "geotiff:stats"
STATS_SUPPORTED_COLUMNS = (STATS_GEOTIFF_COLUMN,)
STATS_WEIGHT_COLUMN = "stac:tensor_shape"

NAVIGATION_COLUMNS_ZIP = frozenset({COLUMN_ID, COLUMN_TYPE, METADATA_CURRENT_ID, METADATA_OFFSET, METADATA_SIZE})
NAVIGATION_COLUMNS_FOLDER = frozenset({COLUMN_ID, COLUMN_TYPE, METADATA_CURRENT_ID})
NAVIGATION_COLUMNS_TACOCAT = NAVIGATION_COLUMNS_ZIP | {METADATA_SOURCE_FILE}
NAVIGATION_COLUMNS_BY_FORMAT = {
    "zip": NAVIGATION_COLUMNS_ZIP,
    "folder": NAVIGATION_COLUMNS_FOLDER,
    "tacocat": NAVIGATION_COLUMNS_TACOCAT,
}
NAVIGATION_COLUMN_DESCRIPTIONS = {
    COLUMN_ID: "Unique sample identifier",
    COLUMN_TYPE: "Sample type (FILE or FOLDER)",
    METADATA_CURRENT_ID: "Row position (int64) for parent-child JOIN relationships",
    METADATA_OFFSET: "Byte offset in archive file",
    METADATA_SIZE: "Byte size of sample data",
    METADATA_SOURCE_FILE: "Source ZIP filename within TacoCat",
}

DATAFRAME_DEFAULT_HEAD_ROWS = 5
DATAFRAME_DEFAULT_TAIL_ROWS = 5
DATAFRAME_MAX_REPR_ROWS = 100
