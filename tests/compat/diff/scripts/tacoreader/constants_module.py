"""tacoreader._constants: the public constants user code imports."""
# inputs: flat_zip
# parity: issue 23: private modules (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

from tacoreader import _constants as C

names = ["DEFAULT_DATAFRAME_BACKEND", "AVAILABLE_BACKENDS", "PROTOCOL_MAPPINGS", "CLOUD_PROTOCOLS", "VSI_PROTOCOLS",
         "TACOZIP_EXTENSIONS", "COLLECTION_JSON", "SAMPLE_TYPE_FILE", "SAMPLE_TYPE_FOLDER", "METADATA_PARENT_ID",
         "METADATA_CURRENT_ID", "METADATA_OFFSET", "METADATA_SIZE", "METADATA_GDAL_VSI", "METADATA_SOURCE_FILE",
         "METADATA_SOURCE_PATH", "PROTECTED_COLUMNS", "TACOCAT_FOLDER_NAME", "DEFAULT_VIEW_NAME", "LEVEL_VIEW_PREFIX",
         "FLAT_VIEW_PREFIX", "STATS_SUPPORTED_COLUMNS", "STATS_WEIGHT_COLUMN", "NAVIGATION_COLUMNS_BY_FORMAT",
         "NAVIGATION_COLUMN_DESCRIPTIONS", "DATAFRAME_DEFAULT_HEAD_ROWS", "DATAFRAME_MAX_REPR_ROWS"]
diffkit.emit({n: getattr(C, n) for n in names})
