// The round picker's fixed texts, apart from its component so tests and the app can name them
// without loading the picker's code (it loads when first shown).
export const PICKER_TEXTS = {
  title: 'Apply to another round',
  copy: 'Start from my last application',
  copyNote:
    'Your answers are copied into the new application, except sensitive answers (such as your Social Security number), disciplinary answers and uploaded documents: you answer and upload those again.',
} as const;
