"""What every script of the package does with trouble it cannot fix: one line on stderr naming
the file and what was wrong, and the documented exit status (README, "Bad input, damaged files,
failing disks"): 2 for bad input (a damaged or foreign result file, a tool refusing its input),
3 for a file that could not be written (disk full, read-only, permissions). Never a traceback,
unless PMOE_TRACEBACK=1 asks for one (bugs)."""
import errno
import os
import shlex
import subprocess
import sys

from pmoe.results import ResultFileError, read

BAD_INPUT, WRITE_FAILED, INTERNAL = 2, 3, 4
# What a write meets on a full, read-only or over-quota disk (any other OSError: bad input).
WRITE_ERRNOS = {errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EFBIG, errno.EIO}


# The name errors are printed under ("pmoe-analyze: error: ..."), as the C++ tools print them;
# set by run(tool=...).
TOOL = ""


def error(message, status):
    print(f"{TOOL + ': ' if TOOL else ''}error: {message}", file=sys.stderr)
    return status


def result_files(argv):
    """The result files named on a command line (arguments ending in .h5)."""
    return [a for a in argv if a.endswith(".h5") and not a.startswith("-")]


def operands(*value_options):
    """check= for a command whose every operand is a result file: the arguments that are
    neither options nor the value of one of value_options ("--out PAGE.html")."""
    def files(argv):
        out, skip = [], False
        for a in argv:
            if skip:
                skip = False
            elif a.startswith("-"):
                skip = a in value_options
            else:
                out.append(a)
        return out
    return files


def run(main, check=None, argv=None, tool=None):
    """main() under the rules above; check(argv) names result files to validate first (with
    pmoe.results.read) so that a damaged file is refused before any work or any output. tool:
    the name errors are printed under."""
    global TOOL
    TOOL = tool or TOOL
    argv = sys.argv[1:] if argv is None else argv
    try:
        for path in (check(argv) if check else []):
            read(path)
        status = main()
        return int(status or 0)
    except ResultFileError as e:
        return error(str(e), BAD_INPUT)
    except subprocess.CalledProcessError as e:
        tool = os.path.basename(str(e.cmd[0])) if e.cmd else "a tool"
        said = (e.stderr or "").strip().splitlines()
        return error(f"{tool} exited with status {e.returncode}"
                     + (f": {said[-1]}" if said else "")
                     + f" ({shlex.join(map(str, e.cmd[1:]))})", BAD_INPUT)
    except OSError as e:
        where = e.filename or "a file"
        status = WRITE_FAILED if e.errno in WRITE_ERRNOS else BAD_INPUT
        return error(f"{where}: {e.strerror or e}", status)
    except KeyboardInterrupt:
        return error("interrupted", 130)
    except Exception as e:  # a bug: one line, the traceback on request
        if os.environ.get("PMOE_TRACEBACK"):
            raise
        return error(f"internal error {type(e).__name__}: {e} (PMOE_TRACEBACK=1 shows where)",
                     INTERNAL)
