"""Content under an image codec stays empty (Django-free).

MuPDF's interpreter reads a content stream whose filters include an image-only codec
(DCTDecode, JPXDecode, JBIG2Decode, CCITTFaxDecode) as no content at all: the page
shows nothing of it, and detection reads nothing. Decoding it as an image, as saving
and every rewrite of a stream does, gives whatever bytes its maker put in the pixels:
corkami's "shattered" PDFs make a page's /Contents a JPEG whose pixels are the text of
a poem, a blank page on the preview and the poem on the release. So every stream MuPDF
interprets as content (a page's, a form's, a tiling pattern's cell, a Type 3 glyph's,
an annotation's appearance) that is under such a codec is made empty, as MuPDF reads it,
before anything else reads the document. A page's /Contents gets a new empty stream of
its own: the stream it named may be drawn as an image elsewhere.
"""

from __future__ import annotations

import pymupdf
from pymupdf import mupdf

# As MuPDF's build_filter names them (pdf-stream.c), abbreviations included.
IMAGE_CODECS = frozenset({"CCITTFaxDecode", "CCF", "DCTDecode", "DCT", "JBIG2Decode", "JPXDecode"})


def image_coded_content_emptied(doc: pymupdf.Document) -> None:
    pdf = mupdf.pdf_specifics(doc.this)
    seen: set[int] = set()
    for number in range(doc.page_count):
        try:
            page = mupdf.pdf_lookup_page_obj(pdf, number)
        except (RuntimeError, mupdf.FzErrorBase):
            continue  # a page MuPDF cannot find: detection names it
        _page_contents_emptied(pdf, page)
        _streams_emptied(
            pdf, mupdf.pdf_dict_get_inheritable(page, mupdf.PDF_ENUM_NAME_Resources), seen
        )
        annots = mupdf.pdf_dict_get(page, mupdf.PDF_ENUM_NAME_Annots)
        for index in range(mupdf.pdf_array_len(annots)):
            appearances = mupdf.pdf_dict_get(
                mupdf.pdf_array_get(annots, index), mupdf.PDF_ENUM_NAME_AP
            )
            for kind in range(mupdf.pdf_dict_len(appearances)):  # /N, /R, /D
                _appearance_emptied(pdf, mupdf.pdf_dict_get_val(appearances, kind), seen)


def under_image_codec(stream: mupdf.PdfObj) -> bool:
    """Whether an image-only codec is among the filters of `stream` (named directly or
    through a reference, as MuPDF resolves them)."""
    filters = mupdf.pdf_dict_get(stream, mupdf.PDF_ENUM_NAME_Filter)
    if mupdf.pdf_is_name(filters):
        return mupdf.pdf_to_name(filters) in IMAGE_CODECS
    return any(
        mupdf.pdf_to_name(mupdf.pdf_array_get(filters, index)) in IMAGE_CODECS
        for index in range(mupdf.pdf_array_len(filters))
    )


def _empty_stream(pdf: mupdf.PdfDocument) -> mupdf.PdfObj:
    return mupdf.pdf_add_stream(pdf, mupdf.fz_new_buffer(0), mupdf.PdfObj(), 0)


def _page_contents_emptied(pdf: mupdf.PdfDocument, page: mupdf.PdfObj) -> None:
    contents = mupdf.pdf_dict_get(page, mupdf.PDF_ENUM_NAME_Contents)
    if mupdf.pdf_is_stream(contents) and under_image_codec(contents):
        mupdf.pdf_dict_put(page, mupdf.PDF_ENUM_NAME_Contents, _empty_stream(pdf))
    for index in range(mupdf.pdf_array_len(contents)):
        part = mupdf.pdf_array_get(contents, index)
        if mupdf.pdf_is_stream(part) and under_image_codec(part):
            mupdf.pdf_array_put(contents, index, _empty_stream(pdf))


def _appearance_emptied(pdf: mupdf.PdfDocument, appearance: mupdf.PdfObj, seen: set[int]) -> None:
    if mupdf.pdf_is_stream(appearance):
        _content_emptied(pdf, appearance, seen)
        return
    for state in range(mupdf.pdf_dict_len(appearance)):  # /On, /Off, ...
        _content_emptied(pdf, mupdf.pdf_dict_get_val(appearance, state), seen)


def _content_emptied(pdf: mupdf.PdfDocument, stream: mupdf.PdfObj, seen: set[int]) -> None:
    """Empty `stream`, interpreted as content, if an image codec is among its filters;
    then go on into the resources it draws with."""
    number = mupdf.pdf_to_num(stream)
    if not mupdf.pdf_is_stream(stream) or number in seen:
        return
    seen.add(number)
    if under_image_codec(stream):
        mupdf.pdf_update_stream(pdf, stream, mupdf.fz_new_buffer(0), 0)  # drops /Filter
    _streams_emptied(pdf, mupdf.pdf_dict_get(stream, mupdf.PDF_ENUM_NAME_Resources), seen)


def _streams_emptied(pdf: mupdf.PdfDocument, resources: mupdf.PdfObj, seen: set[int]) -> None:
    """The content streams `resources` names: forms, tiling patterns, Type 3 glyphs."""
    xobjects = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_XObject)
    for index in range(mupdf.pdf_dict_len(xobjects)):
        xobject = mupdf.pdf_dict_get_val(xobjects, index)
        subtype = mupdf.pdf_dict_get(xobject, mupdf.PDF_ENUM_NAME_Subtype)
        if mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Form):
            _content_emptied(pdf, xobject, seen)
    patterns = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_Pattern)
    for index in range(mupdf.pdf_dict_len(patterns)):
        pattern = mupdf.pdf_dict_get_val(patterns, index)
        if mupdf.pdf_dict_get_int(pattern, mupdf.PDF_ENUM_NAME_PatternType) == 1:
            _content_emptied(pdf, pattern, seen)
    fonts = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_Font)
    for index in range(mupdf.pdf_dict_len(fonts)):
        font = mupdf.pdf_dict_get_val(fonts, index)
        subtype = mupdf.pdf_dict_get(font, mupdf.PDF_ENUM_NAME_Subtype)
        if not mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Type3):
            continue
        number = mupdf.pdf_to_num(font)
        if number in seen:  # a glyph may draw with its own font
            continue
        seen.add(number)
        glyphs = mupdf.pdf_dict_get(font, mupdf.PDF_ENUM_NAME_CharProcs)
        for glyph in range(mupdf.pdf_dict_len(glyphs)):
            _content_emptied(pdf, mupdf.pdf_dict_get_val(glyphs, glyph), seen)
        _streams_emptied(pdf, mupdf.pdf_dict_get(font, mupdf.PDF_ENUM_NAME_Resources), seen)
