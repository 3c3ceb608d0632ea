"""Admission's open-check: can this PDF be processed at all? And detection's page check:
can every page be drawn for a reviewer? Django-free.

A file that MuPDF had to repair is parsed page by page; if MuPDF still reports errors
the file is malformed (a truncated upload, say). A repaired file that parses cleanly is
admitted: real-world PDFs often have a damaged cross-reference table and nothing else.
"""

from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pymupdf
from pymupdf import mupdf

from review.pdf.misplaced_objects import open_settled
from review.pdf.render import CRASHED, NO_SUCH_PAGE, TIMEOUT, PdfUnrenderable, page_pixmap

pymupdf.TOOLS.mupdf_display_errors(False)  # messages are collected, never printed

PDF_MAGIC = b"%PDF-"
MAGIC_WINDOW = 1024  # the header may follow some junk bytes, as readers allow


# What MuPDF says while finding a lost or broken cross-reference table and rebuilding
# it, or while ignoring a broken colour profile (drawn in plain device colours) or a
# font it draws with a stand-in, and nothing worse: damage to the objects themselves (a
# truncated upload) says more ("premature end of data", "object missing 'endobj'").
ROUTINE_REPAIR_MESSAGE = re.compile(
    "|".join(
        (
            "",
            "format error: cannot find startxref",
            "format error: cannot recognize xref format",
            "format error: incorrect number of xref entries in trailer, repairing",
            r"broken xref subsection, proceeding anyway\.",
            r"\.\.\. repeated \d+ times\.\.\.",  # the message before it, again
            r"syntax error: expected generation number \(\d+ \? obj\)",  # a wrong xref offset
            "trying to repair broken xref",
            "repairing PDF document",
            "lcms: .*",
            "format error: cmsOpenProfileFromMem failed",
            "ignoring broken ICC profile",
            # Read off real files whose every page reads whole: bytes before the header
            # (a mail gateway's headers), sloppy writers' streams and trailers, fonts
            # drawn with a stand-in.
            "garbage bytes before version marker",
            "syntax error: expected object number",
            r"line feed missing after stream begin marker \(\d+ 0 R\)",
            r"Trailer Size is off-by-one\. Ignoring\.",
            "non-embedded font using identity encoding: .*",
            "ignored error when loading embedded font; attempting to load system font",
            r"library error: FT_New_Memory_Face\(.*\): .*",
            "syntax error: missing font descriptor",
        )
    )
)


class PdfRejected(Exception):
    """The file cannot be admitted; `code` is the stable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class OpenCheck:
    page_count: int
    repaired: bool
    # Encrypted with an owner password only (permission flags such as no-copy or
    # no-print): the content opens without a password, and the release is a full
    # rewrite without encryption, so the flags do not carry over.
    permission_flags: bool = False


def has_pdf_magic(head: bytes) -> bool:
    return PDF_MAGIC in head[:MAGIC_WINDOW]


def open_check(source: Path | bytes, *, max_pages: int) -> OpenCheck:
    """Open with PyMuPDF and check for a user password, the page count and structural
    damage. A file encrypted with an owner password only opens and is admitted."""
    pymupdf.TOOLS.mupdf_warnings(reset=True)
    try:
        doc = open_settled(source)
    except Exception as exc:  # MuPDF raises several types for unreadable input
        handler = _unknown_security_handler(exc)
        if handler is not None:
            raise PdfRejected(
                "encrypted",
                f"the PDF is encrypted with the {handler} security handler (for its"
                " recipients' certificates, not a password) and cannot be opened",
            ) from exc
        raise PdfRejected("malformed", "the file could not be opened as a PDF") from exc
    with doc:
        if not doc.is_pdf:  # MuPDF opens a JPEG as an image whatever it is told
            raise PdfRejected("not_pdf", "the file is not a PDF (it opens as an image)")
        if doc.needs_pass:
            raise PdfRejected("encrypted", "the PDF needs a password to open")
        permission_flags = bool(doc.is_encrypted or doc.metadata.get("encryption"))
        try:
            page_count = doc.page_count
        except Exception as exc:  # a page count MuPDF refuses (/Count 9999999999)
            raise PdfRejected("malformed", "the PDF's page tree cannot be read") from exc
        if page_count == 0:
            raise PdfRejected("malformed", "the PDF has no pages")
        if page_count > max_pages:
            raise PdfRejected(
                "too_many_pages", f"the PDF has {page_count} pages; the limit is {max_pages}"
            )
        repaired = bool(doc.is_repaired)
        if repaired:
            try:
                for page in doc:
                    page.get_text("words")
            except Exception as exc:
                raise PdfRejected("malformed", "the PDF is damaged and cannot be read") from exc
            messages = pymupdf.TOOLS.mupdf_warnings(reset=True).splitlines()
            if not all(ROUTINE_REPAIR_MESSAGE.fullmatch(m) for m in messages):
                raise PdfRejected("malformed", "the PDF is damaged (truncated or corrupt)")
        scaled = _user_unit(doc)
        if scaled is not None:
            number, unit = scaled
            raise PdfRejected(
                "user_unit",
                f"page {number + 1} sets /UserUnit {unit:g}; pages measured in a unit other"
                " than the point are not supported",
            )
        return OpenCheck(
            page_count=page_count, repaired=repaired, permission_flags=permission_flags
        )


# MuPDF opens the standard security handler (passwords) only: one encrypted for
# certificates (Adobe.PubSec, PDFBox's AESkeylength256.pdf) fails to open with this.
_UNKNOWN_HANDLER = re.compile(r"unknown encryption handler: '([^']*)'")


def _unknown_security_handler(exc: BaseException) -> str | None:
    for error in (exc, exc.__cause__):
        found = _UNKNOWN_HANDLER.search(str(error)) if error is not None else None
        if found:
            return found.group(1)
    return None


def _user_unit(doc: pymupdf.Document) -> tuple[int, float] | None:
    """The first page (0-based) that sets a /UserUnit other than 1, and the unit.

    MuPDF draws and extracts such a page scaled (a large-format drawing at /UserUnit 72
    is 72 times its boxes; 0 makes it empty, -3 three times), but reports its crop box
    as written: detection, burn-in and the gate would measure it in two units at once,
    and take visible text for text outside the crop box."""
    for number in range(doc.page_count):
        try:
            xref = doc.page_xref(number)
        except (RuntimeError, ValueError, mupdf.FzErrorBase):
            continue  # a broken page tree: detection's page check names the page
        if not xref:
            continue
        try:
            kind, value = doc.xref_get_key(xref, "UserUnit")
        except (RuntimeError, ValueError, mupdf.FzErrorBase) as exc:
            # MuPDF shows such a page empty, whatever it holds ("/M<diaBox" in PdfPig's
            # FailedToParseContentForPage32.pdf), and burn-in could not edit it.
            raise PdfRejected(
                "malformed", f"page {number + 1} is damaged and cannot be read"
            ) from exc
        if kind in ("int", "float") and float(value) != 1:
            return number, float(value)
    return None


# ------------------------------------------------------------ detection's page check
#
# Detection draws every page once, as the reviewer will get it, in a child process that
# bounds what this process cannot: time (an alarm per page: its default action ends the
# child even inside MuPDF's C code) and memory (an address-space limit, so an allocation
# fails instead of waking the kernel's OOM killer), and survives a crash of MuPDF
# itself. The child reports page numbers and cause codes on stdout, nothing else.

PAGE_SECONDS = 10  # a letter page draws in about 10 ms; a real scan in well under 1 s
CHILD_MEMORY_BYTES = 1536 * 1024 * 1024  # on top of what the child has mapped at start
CHILD_START_SECONDS = 30


def pages_check(pdf: bytes, *, page_seconds: int = PAGE_SECONDS) -> list[PdfUnrenderable]:
    """Every page of `pdf` that cannot be drawn for a reviewer, drawn in a sandboxed
    child process (see above). Empty when every page draws. A page during which the
    child ran out of time or died is reported with `timeout` or `crashed`; the pages
    after it are not tried."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    try:
        with pymupdf.open(stream=pdf, filetype="pdf") as doc:
            page_count = doc.page_count
    except Exception:  # admission opened it; if it no longer opens, page 1 is unreadable
        return [PdfUnrenderable(0, NO_SUCH_PAGE)]
    command = [sys.executable, "-m", "review.pdf.opencheck", str(page_seconds)]
    started: int | None = None
    failures: list[PdfUnrenderable] = []
    try:
        run = subprocess.run(  # noqa: S603 (our own interpreter and module, no shell)
            command,
            input=pdf,
            capture_output=True,
            env=env,
            cwd=root,
            timeout=CHILD_START_SECONDS + page_seconds * page_count,
            check=False,
        )
        output, returncode = run.stdout, run.returncode
    except subprocess.TimeoutExpired as expired:
        output, returncode = expired.stdout or b"", -signal.SIGKILL
    done: set[int] = set()
    for line in output.decode("ascii", "replace").splitlines():
        verb, _, rest = line.partition(" ")
        if verb == "start":
            started = int(rest)
        elif verb == "ok":
            done.add(int(rest))
        elif verb == "bad":
            number, _, cause = rest.partition(" ")
            done.add(int(number))
            failures.append(PdfUnrenderable(int(number), cause))
    if returncode != 0 and started is not None and started not in done:
        timed_out = returncode in (-signal.SIGALRM, -signal.SIGXCPU, -signal.SIGKILL)
        failures.append(PdfUnrenderable(started, TIMEOUT if timed_out else CRASHED))
    elif returncode != 0 and not failures:
        failures.append(PdfUnrenderable(0, CRASHED))  # died before its first page
    return failures


def _limit_memory() -> None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            mapped = next(
                int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:")
            )
    except (OSError, StopIteration):  # not Linux: bound the whole address space
        mapped = 0
    limit = mapped + CHILD_MEMORY_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _child(page_seconds: int) -> None:
    """The sandboxed side of `pages_check`: the PDF on stdin, one line per page out."""
    pdf = sys.stdin.buffer.read()
    _limit_memory()
    cpu = CHILD_START_SECONDS + page_seconds * 4
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    out = sys.stdout
    with open_settled(pdf) as doc:
        for number in range(doc.page_count):
            print(f"start {number}", file=out, flush=True)
            signal.alarm(page_seconds)  # no handler: the default action ends the child
            try:
                page_pixmap(doc, number)
            except PdfUnrenderable as failure:
                print(f"bad {number} {failure.cause}", file=out, flush=True)
            else:
                print(f"ok {number}", file=out, flush=True)
            finally:
                signal.alarm(0)


if __name__ == "__main__":
    _child(int(sys.argv[1]) if len(sys.argv) > 1 else PAGE_SECONDS)
