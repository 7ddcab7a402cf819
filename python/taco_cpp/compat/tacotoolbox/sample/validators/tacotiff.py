"""TACOTIFF profile of a FILE sample: GeoTIFF, tiled, ZSTD, pixel interleave TILE, no
overviews (read with GDAL's Python bindings)."""

from __future__ import annotations

from ._base import SampleValidator, ValidationError


class TacotiffValidator(SampleValidator):
    def validate(self, sample) -> None:
        if sample.type != "FILE":
            raise ValidationError(f"TACOTIFF validation requires a FILE sample, got {sample.type}")
        try:
            from osgeo import gdal
        except ImportError as e:
            raise ValidationError("TACOTIFF validation needs GDAL's Python bindings (osgeo)") from e
        ds = gdal.Open(str(sample.path))
        if ds is None or ds.GetDriver().ShortName != "GTiff":
            raise ValidationError(f"{sample.path}: not a GeoTIFF")
        md = ds.GetMetadata("IMAGE_STRUCTURE") or {}
        if md.get("COMPRESSION", "").upper() != "ZSTD":
            raise ValidationError(f"{sample.path}: compression must be ZSTD, got {md.get('COMPRESSION')}")
        if md.get("INTERLEAVE", "").upper() != "TILE":
            raise ValidationError(f"{sample.path}: interleave must be TILE, got {md.get('INTERLEAVE')}")
        band = ds.GetRasterBand(1)
        if band.GetOverviewCount() > 0:
            raise ValidationError(f"{sample.path}: overviews are not allowed")
        bx, by = band.GetBlockSize()
        if bx == ds.RasterXSize and by != ds.RasterYSize:
            raise ValidationError(f"{sample.path}: the file must be tiled")
