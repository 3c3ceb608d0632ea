"""What the objects of a release keep (Django-free): `sanitize` removes every other key.

A producer may put anything under a key of its own, and a reader never shows it: the
catalog, the pages and the XObjects keep only what draws and shows the pages. Any object
loses the `OBJECT_KEYS`, which carry a document's own data wherever they hang.
"""

from __future__ import annotations

from collections.abc import Callable, Container

from pymupdf import mupdf

# What a catalog and a page keep: what draws the pages and how a viewer shows them. Any
# other key goes, the ones this module names (the /Names tree, /OpenAction, /AA, the
# outline, the AcroForm, /OCProperties, /Metadata, /PieceInfo, the structure tree,
# /Annots, /Thumb) and any a producer made up: Quite Imposing keeps its command history
# as an embedded file under its own catalog key (/QITE_DocInfo, grobid's test files).
CATALOG_KEEPS = (
    "Type",
    "Pages",
    "Version",
    "Extensions",
    "PageLabels",
    "PageLayout",
    "PageMode",
    "ViewerPreferences",
    "OutputIntents",  # the colours the pages are drawn for
    "Lang",
)
PAGE_KEEPS = (
    "Type",
    "Parent",
    "Resources",
    "Contents",
    "MediaBox",
    "CropBox",
    "BleedBox",
    "TrimBox",
    "ArtBox",
    "Rotate",
    "UserUnit",
    "Group",  # the page's transparency group: how it blends
    "OutputIntents",
)
# What an output intent keeps: the condition the colours are meant for and its profile.
# Its /Info and /OutputCondition are text for people, which a producer fills as it likes
# (and a reviewer never sees): a colour profile's name "U.S. Web Coated (SWOP) v2", with
# "U.S." under every box that held it, refused Virginia's form instructions.
OUTPUT_INTENT_KEEPS = (
    "Type",
    "S",
    "OutputConditionIdentifier",
    "RegistryName",
    "DestOutputProfile",
    "DestOutputProfileRef",
    "MixingHints",
    "SpectralData",
)
# What a form or an image XObject keeps: what draws it. Any other key goes, whatever its
# producer put there: an e-signature stamp's form carries the signer's name and title
# under a made-up /T (PdfPig's issue_671.pdf); an image's /Alternates, which no screen
# shows, and an XObject's /OPI, /Ref and /F name other pictures and files.
_STREAM_KEEPS = ("Length", "Filter", "DecodeParms", "DL")
XOBJECT_KEEPS = {
    "Form": frozenset(
        (
            "Type",
            "Subtype",
            "FormType",
            "BBox",
            "Matrix",
            "Resources",
            "Group",
            "OC",
            *_STREAM_KEEPS,
        )
    ),
    "Image": frozenset(
        (
            "Type",
            "Subtype",
            "Width",
            "Height",
            "ColorSpace",
            "BitsPerComponent",
            "Intent",
            "ImageMask",
            "Mask",
            "Decode",
            "Interpolate",
            "SMask",
            "SMaskInData",
            "Matte",  # a soft mask's: the colour its image was blended with
            "OC",
            *_STREAM_KEEPS,
        )
    ),
}
# Keys that carry a document's own data on any object: XMP metadata, associated files,
# private application data (a form's /PieceInfo), and what pdfTeX records of an included
# PDF figure: its file's path and its whole document info (author, title).
OBJECT_KEYS = (
    "Metadata",
    "AF",
    "PieceInfo",
    "PTEX.FileName",
    "PTEX.InfoDict",
    "PTEX.PageNumber",
)


def delete_keys(obj: mupdf.PdfObj, drop: Callable[[str], bool]) -> None:
    """Remove the keys of the dictionary `obj` that `drop` names outright, by the key
    objects themselves. `xref_set_key(..., "null")` writes a literal `/Key null`, which trips
    pyHanko when it later appends a signature widget to /Annots; and a key that is not
    UTF-8 ("/C\\366ntents", pdf-reader's gh-234.pdf) reads into Python as a name MuPDF
    cannot be given back."""
    for index in reversed(range(mupdf.pdf_dict_len(obj))):
        key = mupdf.pdf_dict_get_key(obj, index)
        if drop(mupdf.pdf_to_name(key)):
            mupdf.pdf_dict_del(obj, key)


def keep_only(obj: mupdf.PdfObj, keeps: Container[str]) -> None:
    """Remove every key of the dictionary `obj` that is not in `keeps`."""
    delete_keys(obj, lambda key: key not in keeps)


def keep_only_in_output_intents(owner: mupdf.PdfObj) -> None:
    """Remove from each output intent of `owner` (a catalog or a page) every key not in
    `OUTPUT_INTENT_KEEPS`."""
    intents = mupdf.pdf_dict_get(owner, mupdf.pdf_new_name("OutputIntents"))
    for index in range(mupdf.pdf_array_len(intents) if mupdf.pdf_is_array(intents) else 0):
        intent = mupdf.pdf_array_get(intents, index)
        if mupdf.pdf_is_dict(intent):
            keep_only(intent, OUTPUT_INTENT_KEEPS)
