// The query keys of the document calls (features/application/api/documents.ts), shared by the
// form's tab switch and the lazily loaded upload widget. Rollup puts a module that both chunks use
// into the entry chunk: these few bytes ride along on every page, the upload calls do not.
export const documentQueryKeys = {
  answers: ['document-answer'] as const,
  conversion: (answerKey: string) => ['document-conversion', answerKey] as const,
};
