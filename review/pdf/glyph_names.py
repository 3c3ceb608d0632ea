"""Empty glyph names given a name MuPDF writes back as it read it (Django-free).

A PDF name may be empty ("/"), and some old Type 3 fonts name a glyph so: pdf.js's
issue5896.pdf calls code 12 "/" in its /Encoding /Differences and in its /CharProcs.
MuPDF writes an empty name with no space before a number that follows it, so the saved
file reads "/ 44" as the name "44" and "/ 15 0 R" as the name "15" with no value: every
code after it in /Differences moves to another glyph, the glyph's procedure becomes
null, and the release's second save fails ("not a dict (null)"). `name_empty_glyphs`
renames such glyphs in the open document before anything saves it; MuPDF maps the new
name to no character, as it does the empty one, so text reads and draws as before.
"""

from __future__ import annotations

import pymupdf
from pymupdf import mupdf

from review.pdf.objects import every_object

STAND_IN = "unnamedglyph"
_TYPE = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Type)
_FONT = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Font)
_ENCODING = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Encoding)
_DIFFERENCES = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Differences)
_CHAR_PROCS = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_CharProcs)


def name_empty_glyphs(doc: pymupdf.Document) -> None:
    """Give every empty glyph name in every font's /Encoding /Differences and /CharProcs
    the name `STAND_IN` (see above). One lookup per object that is not a font."""
    for font in every_object(doc):
        if mupdf.pdf_name_eq(mupdf.pdf_dict_get(font, _TYPE), _FONT):
            encoding = mupdf.pdf_dict_get(font, _ENCODING)
            _rename_in_differences(mupdf.pdf_dict_get(encoding, _DIFFERENCES))
            _rename_procedure(mupdf.pdf_dict_get(font, _CHAR_PROCS))


def _rename_in_differences(differences: mupdf.PdfObj) -> None:
    for index in range(mupdf.pdf_array_len(differences)):  # 0 for anything not an array
        if _is_empty_name(mupdf.pdf_array_get(differences, index)):
            mupdf.pdf_array_put(differences, index, mupdf.pdf_new_name(STAND_IN))


def _rename_procedure(char_procs: mupdf.PdfObj) -> None:
    for index in range(mupdf.pdf_dict_len(char_procs)):  # 0 for anything not a dict
        key = mupdf.pdf_dict_get_key(char_procs, index)
        if _is_empty_name(key):
            procedure = mupdf.pdf_dict_get_val(char_procs, index)
            mupdf.pdf_dict_del(char_procs, key)
            mupdf.pdf_dict_puts(char_procs, STAND_IN, procedure)
            return  # a dict holds a key once


def _is_empty_name(obj: mupdf.PdfObj) -> bool:
    return bool(mupdf.pdf_is_name(obj)) and mupdf.pdf_to_name(obj) == ""
