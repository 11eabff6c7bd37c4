// The three fields of a recommender (issue #30): type, name and e-mail, for a new one and for a
// change. The types offered are those with room left under the institution's limits.
import { Stack, TextInput } from '@mantine/core';
import {
  RECOMMENDER_TYPES,
  type ChecklistResponse,
  type RecommenderBody,
  type RecommenderType,
} from '@admissions/api-contract';
import { SelectField } from './select-field';
import { RECOMMENDER_TYPE_LABELS } from '../lib/checklist-texts';

export interface RecommenderDraft {
  type: RecommenderType | '';
  name: string;
  email: string;
}

export type DraftErrors = Partial<Record<keyof RecommenderDraft, string>>;

export const EMPTY_DRAFT: RecommenderDraft = { type: '', name: '', email: '' };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the server would refuse, said before sending; empty when the draft may go. */
export function checkRecommenderDraft(draft: RecommenderDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (!draft.type) errors.type = 'Please choose the kind of recommender.';
  if (!draft.name.trim()) errors.name = "Please enter the recommender's name.";
  if (!EMAIL.test(draft.email.trim())) errors.email = 'Please enter a valid e-mail address.';
  return errors;
}

export function toRecommenderBody(draft: RecommenderDraft): RecommenderBody {
  return {
    type: draft.type as RecommenderType,
    name: draft.name.trim(),
    email: draft.email.trim(),
  };
}

/**
 * How many more recommenders of `type` the applicant may name; `editing` is the one being
 * changed, who keeps their own place.
 */
export function countRoom(
  checklist: ChecklistResponse,
  type: RecommenderType,
  editing?: string,
): number {
  const taken = checklist.recommenders.filter((r) => r.type === type && r.id !== editing).length;
  return checklist.limits[type] - taken;
}

/** The types the institution takes at all, each disabled once its limit is reached. */
export function listTypeOptions(checklist: ChecklistResponse, editing?: string) {
  return RECOMMENDER_TYPES.filter((type) => checklist.limits[type] > 0).map((type) => {
    const full = countRoom(checklist, type, editing) <= 0;
    return {
      value: type,
      label: full
        ? `${RECOMMENDER_TYPE_LABELS[type]} (all ${checklist.limits[type]} invited)`
        : RECOMMENDER_TYPE_LABELS[type],
      disabled: full,
    };
  });
}

export function RecommenderFields({
  draft,
  errors,
  onChange,
  checklist,
  editing,
}: {
  draft: RecommenderDraft;
  errors: DraftErrors;
  onChange: (draft: RecommenderDraft) => void;
  checklist: ChecklistResponse;
  editing?: string;
}) {
  return (
    <Stack gap="sm">
      <SelectField
        label="Kind of recommender"
        required
        value={draft.type}
        placeholder="Choose one"
        onChange={(type) => onChange({ ...draft, type: type as RecommenderType })}
        data={listTypeOptions(checklist, editing)}
        error={errors.type}
      />
      <TextInput
        label="Name"
        required
        autoComplete="off"
        maxLength={120}
        value={draft.name}
        onChange={(event) => onChange({ ...draft, name: event.currentTarget.value })}
        error={errors.name}
      />
      <TextInput
        label="E-mail address"
        type="email"
        required
        autoComplete="off"
        maxLength={254}
        value={draft.email}
        onChange={(event) => onChange({ ...draft, email: event.currentTarget.value })}
        error={errors.email}
      />
    </Stack>
  );
}
