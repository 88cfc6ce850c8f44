#!/usr/bin/env python3
"""Writes the binary fixtures deterministically (fixed zip timestamps, hand-built PDFs):
fixtures/case-files/board-minutes.docx and bank-statement.pdf, fixtures/formats/notes.odt
and handbook.epub, and the bad files of fixtures/bad/. Run from the repository root;
the outputs are committed, so tests never need Python."""
import os
import zipfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
STAMP = (2024, 3, 1, 12, 0, 0)


def write_zip(path, members, stored_first=None):
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members:
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_STORED if name == stored_first else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)


W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'


def para(text, style=None, num=False):
    ppr = ""
    if style or num:
        ppr = "<w:pPr>" + (f'<w:pStyle w:val="{style}"/>' if style else "") + ('<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>' if num else "") + "</w:pPr>"
    return f'<w:p>{ppr}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def docx(path, body):
    doc = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {W}><w:body>{body}</w:body></w:document>'
    write_zip(path, [
        ("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
        ("_rels/.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
        ("word/_rels/document.xml.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org/registry/beta-holdings" TargetMode="External"/></Relationships>'),
        ("word/document.xml", doc),
    ])


def board_minutes():
    cell = lambda t: f'<w:tc><w:p><w:r><w:t>{t}</w:t></w:r></w:p></w:tc>'
    row = lambda *ts: "<w:tr>" + "".join(cell(t) for t in ts) + "</w:tr>"
    body = "".join([
        para("Minutes of the Board of Directors of Acme Trading Ltd", "Title"),
        para("Meeting of 28 February 2024, held at the registered office. Present: Marek Novak (chair), Ines Duarte, Paul Whitaker."),
        para("1. Consulting agreement with Beta Holdings SA", "Heading1"),
        para("The board approved a consulting agreement with Beta Holdings SA (the \u201cConsultant\u201d) for a fee of USD 1,490,000, payable in March 2024."),
        '<w:p><w:r><w:t xml:space="preserve">Registry record: </w:t></w:r><w:hyperlink r:id="rId5"><w:r><w:t>Beta Holdings SA company file</w:t></w:r></w:hyperlink></w:p>',
        para("2. Payments", "Heading1"),
        "<w:tbl>" + row("Payee", "Amount (USD)", "Due") + row("Beta Holdings SA", "1,490,000", "2024-03-05") + row("Gamma Consulting LLC", "60,000", "2024-03-31") + "</w:tbl>",
        para("3. Resolutions", "Heading1"),
        para("The chair shall sign the agreement on behalf of the company.", num=True),
        para("Payments MUST be approved by two directors.", num=True),
        para("4. Introducer", "Heading1"),
        para("Gamma Consulting LLC introduced Beta Holdings SA and will receive a success fee."),
    ])
    docx(os.path.join(ROOT, "fixtures/case-files/board-minutes.docx"), body)


def pdf_escape(s):
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf(path, pages, extra_trailer="", quote_operator=False):
    """A minimal PDF: one Helvetica text stream per page (lines drawn with Tj and T*, or
    with the ' operator, which pdf-extract ignores)."""
    objs = []
    n_pages = len(pages)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(n_pages))
    objs.append("<< /Type /Catalog /Pages 2 0 R >>")
    objs.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>")
    objs.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    for lines in pages:
        if quote_operator:
            content = "BT /F1 11 Tf 14 TL 72 760 Td " + " ".join(f"({pdf_escape(l)}) '" for l in lines) + " ET"
        else:
            content = "BT /F1 11 Tf 14 TL 72 760 Td " + " ".join(f"({pdf_escape(l)}) Tj T*" for l in lines) + " ET"
        page_no = len(objs) + 1
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {page_no + 1} 0 R >>")
        objs.append(f"<< /Length {len(content.encode('latin-1'))} >>\nstream\n{content}\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, o in enumerate(objs):
        offsets.append(len(out))
        out += f"{i + 1} 0 obj\n{o}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R {extra_trailer}>>\nstartxref\n{xref}\n%%EOF\n".encode()
    with open(path, "wb") as f:
        f.write(out)
    return bytes(out)


def bank_statement():
    p1 = [
        "First Harbour Bank - Account Statement",
        "Account holder: Acme Trading Ltd",
        "Account number: 0042-7781-19",
        "Period: 1 March 2024 to 31 March 2024",
        "",
        "Date        Reference  Description                      Debit (USD)",
        "2024-03-01  WT-1001    Wire to Beta Holdings SA          495,000.00",
        "2024-03-01  WT-1002    Wire to Beta Holdings SA          490,000.00",
        "2024-03-02  WT-1003    Wire to Beta Holdings SA          480,000.00",
    ]
    p2 = [
        "First Harbour Bank - Account Statement (page 2)",
        "2024-03-03  WT-1004    Wire to Beta Holdings SA          475,000.00",
        "2024-03-03  WT-1005    ACH to Delta Freight, Inc.         12,500.00",
        "",
        "Closing balance: USD 3,118,240.55",
        "Questions about this statement must be raised within 60 days.",
    ]
    return pdf(os.path.join(ROOT, "fixtures/case-files/bank-statement.pdf"), [p1, p2])


def odt():
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:xlink="http://www.w3.org/1999/xlink"><office:body><office:text>'
               '<text:h text:outline-level="1">Interview notes</text:h>'
               '<text:p>Interview with Lena Ortiz, 7 March 2024.<text:s text:c="2"/>She confirmed the split payments.</text:p>'
               '<text:h text:outline-level="2">Follow-up</text:h>'
               '<text:list><text:list-item><text:p>Request SWIFT messages for WT-1001 to WT-1004.</text:p></text:list-item>'
               '<text:list-item><text:p>Check <text:a xlink:href="https://example.org/registry/gamma">Gamma Consulting</text:a> ownership.</text:p></text:list-item></text:list>'
               '<table:table><table:table-row><table:table-cell><text:p>Wire</text:p></table:table-cell><table:table-cell><text:p>Amount</text:p></table:table-cell></table:table-row>'
               '<table:table-row><table:table-cell><text:p>WT-1001</text:p></table:table-cell><table:table-cell><text:p>495,000</text:p></table:table-cell></table:table-row></table:table>'
               '</office:text></office:body></office:document-content>')
    write_zip(os.path.join(ROOT, "fixtures/formats/notes.odt"), [
        ("mimetype", "application/vnd.oasis.opendocument.text"),
        ("META-INF/manifest.xml", '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'),
        ("content.xml", content),
    ], stored_first="mimetype")


def epub():
    chap = lambda title, body: f'<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>'
    write_zip(os.path.join(ROOT, "fixtures/formats/handbook.epub"), [
        ("mimetype", "application/epub+zip"),
        ("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
        ("OEBPS/content.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest><item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="text/ch%202.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>'),
        ("OEBPS/ch1.xhtml", chap("Structuring", "<p>Structuring means splitting a transaction to stay under a reporting threshold&#8212;a red flag.</p>")),
        ("OEBPS/text/ch 2.xhtml", chap("Shell banks", "<p>A shell bank has no physical presence in any country.</p>")),
    ], stored_first="mimetype")


def forwarded_mail():
    """An e-mail forwarding the bank statement (base64 PDF) and an earlier message (message/rfc822)."""
    import base64
    pdf_bytes = open(os.path.join(ROOT, "fixtures/case-files/bank-statement.pdf"), "rb").read()
    b64 = base64.encodebytes(pdf_bytes).decode()
    inner = open(os.path.join(ROOT, "fixtures/case-files/emails/2024-03-01-reply.eml")).read()
    msg = (
        "From: Dana Whitfield <dana.whitfield@acme-trading.example>\n"
        "To: compliance@acme-trading.example\n"
        "Date: Mon, 04 Mar 2024 16:00:00 +0000\n"
        "Subject: Fwd: statement and Lena's confirmation\n"
        "Message-ID: <fwd-1@acme-trading.example>\n"
        "MIME-Version: 1.0\n"
        "Content-Type: multipart/mixed; boundary=\"outer\"\n\n"
        "--outer\n"
        "Content-Type: text/html; charset=utf-8\n\n"
        "<p>Forwarding the <b>March statement</b> and Lena&rsquo;s confirmation. See "
        "<a href=\"https://example.org/case/AML-2024-031\">the case file</a>.</p>\n"
        "--outer\n"
        "Content-Type: application/pdf; name=\"statement.pdf\"\n"
        "Content-Disposition: attachment; filename=\"statement.pdf\"\n"
        "Content-Transfer-Encoding: base64\n\n" + b64 +
        "--outer\n"
        "Content-Type: message/rfc822\n\n" + inner +
        "\n--outer--\n"
    )
    with open(os.path.join(ROOT, "fixtures/formats/forwarded.eml"), "w") as f:
        f.write(msg)


def bad():
    d = os.path.join(ROOT, "fixtures/bad")
    stmt = open(os.path.join(ROOT, "fixtures/case-files/bank-statement.pdf"), "rb").read()
    with open(os.path.join(d, "truncated.pdf"), "wb") as f:
        f.write(stmt[:400])
    pdf(os.path.join(d, "encrypted.pdf"), [["Secret"]],
        extra_trailer="/Encrypt << /Filter /Standard /V 1 /R 2 /O <" + "11" * 32 + "> /U <" + "22" * 32 + "> /P -4 >> /ID [<" + "33" * 16 + "> <" + "33" * 16 + ">] ")
    pdf(os.path.join(d, "scanned.pdf"), [[]])
    pdf(os.path.join(d, "quote-operators.pdf"), [["Wire WT-1006 to Beta Holdings SA for USD 470,000 was drawn", "with the quote operator, which pdf-extract silently drops."]], quote_operator=True)
    # A DOCX whose document.xml expands 8 MiB from a few KiB: refused by the ratio limit.
    write_zip(os.path.join(d, "zip-bomb.docx"), [
        ("[Content_Types].xml", "<Types/>"),
        ("word/document.xml", '<?xml version="1.0"?><w:document ' + W + '><w:body><w:p><w:r><w:t>' + " " * (8 * 1024 * 1024) + "</w:t></w:r></w:p></w:body></w:document>"),
    ])
    with open(os.path.join(d, "not-a-docx.docx"), "wb") as f:
        f.write(b"This is plain text pretending to be a Word file.\n")
    with open(os.path.join(d, "invalid-utf8.txt"), "wb") as f:
        f.write(b"Caf\xe9 au lait cost \x80 3.50 at the Z\xfcrich branch.\n")
    with open(os.path.join(d, "empty.txt"), "wb") as f:
        pass
    with open(os.path.join(d, "binary.dat"), "wb") as f:
        f.write(bytes(range(256)) * 4)
    with open(os.path.join(d, "deep-nesting.html"), "w") as f:
        f.write("<html><body>" + "<div>" * 5000 + "<p>Deep text survives.</p>" + "</div>" * 5000 + "</body></html>\n")


if __name__ == "__main__":
    board_minutes()
    bank_statement()
    odt()
    epub()
    forwarded_mail()
    bad()
