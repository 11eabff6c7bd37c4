// --combined: every exported application in one PDF, in index order, one tagged document with a
// top-level bookmark and a Part of the structure tree per applicant (answer-view's
// combineApplicationPdfs).

export interface CombinedEntry {
  title: string;
  read: () => Promise<Uint8Array>;
}

export async function buildCombinedPdf(entries: readonly CombinedEntry[]): Promise<Uint8Array> {
  // Loaded with the first combined PDF: a server start does not pay for pdf-lib (~0.1 s).
  const { combineApplicationPdfs } = await import('@admissions/answer-view/pdf-combine');
  return combineApplicationPdfs(entries, 'Applications');
}
