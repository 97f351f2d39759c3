"""The library versions a benchmark ran with, written into its results: OpenCV, onnxruntime and
numpy releases move a few tiles' readings (an interpolation, a convolution's rounding), so a
figure that changed between two runs can be told apart from a change of code."""

from __future__ import annotations

import platform
from importlib import metadata

#: the distributions whose arithmetic the figures depend on
LIBRARIES = ("numpy", "opencv-python-headless", "onnxruntime", "simplejpeg", "pillow")


def library_versions() -> dict[str, str]:
    """{name: version} for Python and each of LIBRARIES installed ("not installed" otherwise)."""
    out = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def versions_line(versions: dict[str, str] | None) -> list[str]:
    """The results page's line naming them (nothing for results written before they were kept)."""
    if not versions:
        return []
    return ["Libraries: " + ", ".join(f"{k} {v}" for k, v in versions.items()) + ".", ""]
