"""One long-lived UNO client for one LibreOffice process (docs/measurements.md).

Run with Debian's /usr/bin/python3 (python3-uno). Speaks JSON lines on stdin/stdout:
  -> {"id": 1, "input": "/abs/in.docx", "output": "/abs/out.pdf", "filter": "MS Word 2007 XML"}
  <- {"id": 1, "ok": true} | {"id": 1, "ok": false, "error": "...", "fatal": false}
The first line written is {"ready": true} once the office answers on its pipe. A fatal error
(the office went away) ends the bridge; the pool then replaces the whole pair.
"""

import json
import sys
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException
from com.sun.star.lang import DisposedException
from com.sun.star.uno import RuntimeException

# com.sun.star.document.UpdateDocMode.NO_UPDATE and MacroExecMode.NEVER_EXECUTE
NO_UPDATE = 0
NEVER_EXECUTE = 0


def props(**values):
    out = []
    for name, value in values.items():
        p = PropertyValue()
        p.Name = name
        p.Value = value
        out.append(p)
    return tuple(out)


PDF_EXPORT_OPTIONS = props(UseTaggedPDF=True, PDFUACompliance=True)


def write(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def connect(pipe_name, deadline):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local
    )
    url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe_name
    while True:
        try:
            ctx = resolver.resolve(url)
            smgr = ctx.ServiceManager
            return smgr.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except NoConnectException:
            if time.time() > deadline:
                raise
            time.sleep(0.05)


def convert(desktop, request):
    load = props(
        Hidden=True,
        ReadOnly=True,
        FilterName=request["filter"],
        UpdateDocMode=NO_UPDATE,
        MacroExecutionMode=NEVER_EXECUTE,
        # Never ask (there is nobody to answer) and never repair silently into something else.
        RepairPackage=False,
        Silent=True,
    )
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(request["input"]), "_blank", 0, load)
    if doc is None:
        raise ValueError("the document could not be opened")
    try:
        # Tagged (PDF/UA): the application PDF keeps the document's structure tree (issue #32).
        filter_data = uno.Any("[]com.sun.star.beans.PropertyValue", PDF_EXPORT_OPTIONS)
        store = props(FilterName="writer_pdf_Export", FilterData=None)
        store[1].Value = filter_data
        uno.invoke(doc, "storeToURL", (uno.systemPathToFileUrl(request["output"]), store))
    finally:
        doc.close(True)


def main():
    pipe_name = sys.argv[1]
    desktop = connect(pipe_name, time.time() + float(sys.argv[2] if len(sys.argv) > 2 else 30))
    write({"ready": True})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        request = json.loads(line)
        try:
            convert(desktop, request)
            write({"id": request["id"], "ok": True})
        except (DisposedException, RuntimeException) as error:
            write({"id": request["id"], "ok": False, "fatal": True, "error": str(error)[:500]})
            return 1
        except Exception as error:  # noqa: BLE001 - any load/store failure is a bad document
            write({"id": request["id"], "ok": False, "fatal": False, "error": str(error)[:500]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
