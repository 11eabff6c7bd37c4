import { ADD_ANOTHER_DEFAULT, MESSAGES } from '../messages';
import type { ApplicationDefinition, PageId, RepeatGroup, TabGroup } from '../types';
import { ABOUT_PAGE, LEGACY_PREFIXES, PARENT_PREFIXES } from './about-page';
import { EDUCATION_PAGE, HIGH_SCHOOL_PREFIXES } from './education-page';
import { FINAL_STEPS_PAGE } from './final-steps-page';

export { ABOUT_PAGE, LEGACY_PREFIXES, PARENT_PREFIXES } from './about-page';
export { EDUCATION_PAGE, HIGH_SCHOOL_PREFIXES } from './education-page';
export { FINAL_STEPS_PAGE } from './final-steps-page';

// Button ids are what PUT /api/add-another stores; block n of a group uses prefixes[n - 1].
export const REPEAT_GROUPS: readonly RepeatGroup[] = [
  {
    id: 'parents',
    title: 'Parents/Guardians',
    buttonLabel: 'Add Another Parent/Guardian',
    defaultCount: ADD_ANOTHER_DEFAULT,
    max: PARENT_PREFIXES.length,
    prefixes: PARENT_PREFIXES,
  },
  {
    id: 'legacy',
    title: 'Relatives Who Attended {shortSchoolName}',
    buttonLabel: 'Add Another Relative',
    defaultCount: ADD_ANOTHER_DEFAULT,
    max: LEGACY_PREFIXES.length,
    prefixes: LEGACY_PREFIXES,
  },
  {
    id: 'high_schools',
    title: 'High Schools',
    buttonLabel: 'Add Another High School',
    defaultCount: ADD_ANOTHER_DEFAULT,
    max: HIGH_SCHOOL_PREFIXES.length,
    prefixes: HIGH_SCHOOL_PREFIXES,
  },
];

export const UPLOAD_TAB = 'upload';
export const ESSAY_TAB = 'essay';

function statementTabGroup(id: string, label: string, requiredMessage?: string): TabGroup {
  const doc = `${id}_doc`;
  const essay = `${id}_essay`;
  return {
    id,
    label,
    defaultTab: UPLOAD_TAB,
    tabs: [
      { id: UPLOAD_TAB, label: 'Upload a Document', questionKey: doc, clears: [essay] },
      { id: ESSAY_TAB, label: 'Type Your Response', questionKey: essay, clears: [doc] },
    ],
    ...(requiredMessage ? { required: { message: requiredMessage } } : {}),
  };
}

// Tab ids are what PUT /api/tabs stores as tab_id.
export const TAB_GROUPS: readonly TabGroup[] = [
  statementTabGroup('business_statement', 'Business Statement', MESSAGES.businessStatement),
  statementTabGroup('support_statement', 'Academic Support Statement'),
  statementTabGroup('honors_statement', 'Honors College Statement'),
  statementTabGroup('honors_additional_statement', 'Honors College Additional Statement'),
  statementTabGroup('levermore_statement', 'Levermore Global Scholars Statement'),
  statementTabGroup('personal_statement', 'Personal Statement'),
];

/** Page ids in step order; each is also the SPA route (`/about`, …) and the link prefix. */
export const PAGE_IDS: readonly PageId[] = ['about', 'education', 'final-steps'];

/** The whole application. Everything else in this package takes it as an argument. */
export const APPLICATION_DEFINITION: ApplicationDefinition = {
  pages: [ABOUT_PAGE, EDUCATION_PAGE, FINAL_STEPS_PAGE],
  repeatGroups: REPEAT_GROUPS,
  tabGroups: TAB_GROUPS,
};
