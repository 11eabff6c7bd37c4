// The small application both renderers draw once at start, so the first real request does not pay
// for font parsing and JIT warm-up: one row in every script the fonts cover.
import type { AnswerView, ApplicationCover } from '../view-model';

const SCRIPTS = 'Zoë Łukasz 王小明 Дмитрий';

export const WARM_UP_VIEW: AnswerView = {
  pages: [
    {
      id: 'about',
      title: 'About You',
      sections: [
        {
          id: 'warm',
          title: SCRIPTS,
          rows: [{ key: 'warm', label: 'Name', value: `${SCRIPTS} Ελένη`, kind: 'short' }],
        },
      ],
    },
  ],
  documents: [],
};

export const WARM_UP_COVER: ApplicationCover = {
  applicantName: 'Warm-up',
  applicationId: '0',
  submittedAt: null,
  generatedAt: new Date(0).toISOString(),
};
