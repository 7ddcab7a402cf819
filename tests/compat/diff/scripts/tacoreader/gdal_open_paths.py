"""The GDAL paths of read() open with GDAL and give the written pixels."""
# inputs: nested_zip
# parity: R58 (PARITY.md, tacoreader 2.4.21)
import sys

import diffkit
import tacoreader

W = sys.argv[1]

from osgeo import gdal

gdal.UseExceptions()
ds = tacoreader.load(f"{W}/nested.tacozip")
out = []
for i in range(2):
    r = gdal.Open(ds.read(i).read("image.tif"))
    out.append([r.RasterXSize, r.RasterCount, list(r.GetGeoTransform()),
                list(r.GetRasterBand(1).ReadRaster(0, 0, 2, 1))])
diffkit.emit({"rasters": out})
