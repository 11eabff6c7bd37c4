// The print view's stylesheet, shipped as a string and rendered in a <style> element by PrintView,
// so it works wherever the component renders (the SPA, server-side markup for Chromium's
// page.pdf(), tests) without a CSS-module loader. Class names carry the `av-` prefix.
export const PRINT_VIEW_CSS = `
.av-print {
  color: #000;
  background: #fff;
  font-family: Arial, Helvetica, sans-serif;
  font-size: 0.9375rem;
  line-height: 1.4;
  max-width: 60rem;
  margin: 0 auto;
  padding: 1.5rem 1rem 3rem;
}
.av-print .av-cover { margin-bottom: 1.5rem; padding-bottom: 0.75rem; border-bottom: 2px solid #000; }
.av-print .av-cover-heading { margin: 0 0 0.25rem; font-size: 0.875rem; text-transform: uppercase; letter-spacing: 0.04em; }
.av-print .av-applicant { margin: 0 0 0.75rem; font-size: 1.75rem; line-height: 1.2; color: #000; }
.av-print .av-cover-lines { margin: 0; }
.av-print .av-cover-lines > div { display: flex; flex-wrap: wrap; gap: 0 0.5rem; }
.av-print .av-cover-lines dt { font-weight: 700; }
.av-print .av-cover-lines dt::after { content: ":"; }
.av-print .av-cover-lines dd { margin: 0; }
.av-print .av-page + .av-page { margin-top: 2.5rem; }
.av-print .av-page-title { margin: 0 0 0.5rem; font-size: 1.5rem; line-height: 1.25; color: #000; break-after: avoid; page-break-after: avoid; }
.av-print .av-section { margin-top: 1.25rem; }
.av-print .av-section-title { margin: 0 0 0.25rem; padding-bottom: 0.125rem; font-size: 1.125rem; line-height: 1.3; color: #000; border-bottom: 1px solid #000; break-after: avoid; page-break-after: avoid; }
.av-print .av-block-group { margin-top: 1.25rem; }
.av-print .av-block-group > .av-section-title { font-size: 1.25rem; }
.av-print .av-block-group .av-section { margin-top: 0.75rem; }
.av-print .av-block-group .av-section .av-section-title { font-size: 1.0625rem; border-bottom-color: #777; }
.av-print .av-section-tab { margin: 0 0 0.25rem; font-style: italic; break-after: avoid; page-break-after: avoid; }
.av-print .av-rows { margin: 0; }
.av-print .av-row { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 0.125rem 1rem; padding: 0.3rem 0; border-bottom: 1px solid #bbb; break-inside: avoid; page-break-inside: avoid; }
.av-print .av-row dt { font-weight: 700; overflow-wrap: anywhere; }
.av-print .av-row dd { margin: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
.av-print .av-row-tab { display: block; font-weight: 400; font-style: italic; }
.av-print .av-row-check { grid-template-columns: 2.5rem minmax(0, 1fr); }
.av-print .av-row-check dt { order: 2; font-weight: 400; }
.av-print .av-row-check dd { order: 1; font-family: "Courier New", Courier, monospace; white-space: pre; }
.av-print .av-row-long { grid-template-columns: minmax(0, 1fr); break-inside: auto; page-break-inside: auto; }
.av-print .av-row-long dt { break-after: avoid; page-break-after: avoid; }
.av-print .av-row-long dd { orphans: 3; widows: 3; }
.av-print .av-documents { margin-top: 2.5rem; }
.av-print .av-documents ul { margin: 0; padding-left: 1.25rem; }
.av-print .av-documents li { break-inside: avoid; page-break-inside: avoid; }
@media print {
  @page { margin: 15mm 15mm 18mm; }
  .av-print { max-width: none; margin: 0; padding: 0; font-size: 10.5pt; }
  .av-print, .av-print * { color: #000 !important; background: transparent !important; box-shadow: none !important; text-shadow: none !important; }
  .av-print .av-page { break-before: page; page-break-before: always; }
  .av-print .av-page + .av-page { margin-top: 0; }
  .av-print .av-cover + .av-page { break-before: auto; page-break-before: auto; }
  .av-print .av-documents { break-before: page; page-break-before: always; margin-top: 0; }
}
`;
