import { describe, expect, it } from 'vitest';
import {
  APPLICATION_DEFINITION,
  DEFAULT_PARTNER,
  type ApplicationDefinition,
} from '@admissions/form';
import {
  buildAnswerView,
  collectAnswerPairs,
  formatApplicantName,
  formatDocumentSize,
  maskIdentifier,
  type AnswerRow,
  type AnswerView,
  type AnswerViewExtras,
} from '../src';
import { ANSWER_FIXTURES, withCompanions } from '../src/fixtures';

const complete = ANSWER_FIXTURES.complete;
const us = ANSWER_FIXTURES['us-citizen'];

function build(
  answers: Readonly<Record<string, string>>,
  extras: Partial<AnswerViewExtras> = {},
  definition: ApplicationDefinition = APPLICATION_DEFINITION,
): AnswerView {
  return buildAnswerView(definition, answers, { partner: DEFAULT_PARTNER, ...extras });
}

function rows(view: AnswerView): AnswerRow[] {
  return view.pages.flatMap((p) => p.sections.flatMap((s) => s.rows));
}

function row(view: AnswerView, key: string): AnswerRow | undefined {
  return rows(view).find((r) => r.key === key);
}

function sectionIds(view: AnswerView): string[] {
  return view.pages.flatMap((p) => p.sections.map((s) => s.id));
}

describe('buildAnswerView', () => {
  it('shows pages and sections in the order of the form', () => {
    const view = build(complete.answers, complete);
    expect(view.pages.map((p) => p.title)).toEqual(['About You', 'Your Academics', 'Final Steps']);
    const order = APPLICATION_DEFINITION.pages.flatMap((p) => p.sections.map((s) => s.id));
    const shown = sectionIds(view);
    expect(shown).toEqual(order.filter((id) => shown.includes(id)));
    // Within a section, rows follow the definition's question order.
    const personal = view.pages[0]?.sections[0];
    expect(personal?.rows.map((r) => r.key).slice(0, 4)).toEqual([
      'first_name',
      'middle_name',
      'last_name',
      'preferred_name',
    ]);
  });

  it('leaves out hidden answers, and what they would have shown', () => {
    const answers = withCompanions({
      ...us.answers,
      sibling_admission: 'N',
      sibling_admission_name: 'Secret Sibling',
      citizenship_type: '1',
      birth_city: 'Hiddenville',
      toefl_taken: 'Y',
      toefl_score: '99',
    });
    const view = build(answers, us);
    const text = JSON.stringify(view);
    for (const gone of ['Secret Sibling', 'Hiddenville', 'TOEFL']) expect(text).not.toContain(gone);
    expect(row(view, 'sibling_admission')?.value).toBe('No');
    expect(row(view, 'sibling_admission_name')).toBeUndefined();
  });

  it('clears answers hidden by other hidden answers (the engine clears until stable)', () => {
    // f1_visa shows only for international students; f1_visa_explain only when f1_visa is N.
    const view = build({ ...us.answers, f1_visa: 'N', f1_visa_explain: 'Never shown' });
    expect(JSON.stringify(view)).not.toContain('Never shown');
  });

  it('shows option labels rather than codes, dependent selects included', () => {
    const view = build(complete.answers, complete);
    expect(row(view, 'citizenship_type')?.value).toBe('International Student (not a U.S. citizen)');
    expect(row(view, 'state')?.value).toBe('Massachusetts');
    expect(row(view, 'hs_2_state')?.value).toBe('Quebec');
    expect(row(view, 'applied_major_concentration')?.value).toBe('Design and Technology');
    expect(row(view, 'entry_term')?.value).toBe(DEFAULT_PARTNER.entryTerms[0]?.label);
    expect(row(view, 'native_language_select')?.value).toBe('Swedish');
    expect(row(view, 'citizenship')?.value).toBe('Sweden');
  });

  it('falls back to the saved label, then the code, for a code no longer listed', () => {
    const view = build({ ...us.answers, gender_iden: 'Z', gender_iden_desc: 'Retired label' });
    expect(row(view, 'gender_iden')?.value).toBe('Retired label');
    const bare = build({ ...us.answers, gender_iden: 'Z' });
    expect(row(bare, 'gender_iden')?.value).toBe('Z');
  });

  it('shows checkboxes as [X] and [ ]', () => {
    const view = build(complete.answers, complete);
    expect(row(view, 'race_black')).toMatchObject({ value: '[X]', kind: 'check' });
    expect(row(view, 'race_asian')).toMatchObject({ value: '[ ]', kind: 'check' });
    // Never answered reads as unticked too.
    const bare = build({ ...us.answers, race_native_hawaiian: '' });
    expect(row(bare, 'race_native_hawaiian')?.value).toBe('[ ]');
  });

  it('formats dates, month-years and phones readably', () => {
    const view = build({ ...us.answers, birth_date: '2008-03-02', phone_home: '2175550100' }, us);
    expect(row(view, 'birth_date')?.value).toBe('March 2, 2008');
    expect(row(view, 'phone_home')?.value).toBe('(217) 555-0100');
    const y = new Date().getUTCFullYear();
    expect(row(view, 'act_plan_month')?.value).toBe(`October ${y + 1}`);
    expect(row(view, 'hs_attend_from_month')?.value).toBe(`September ${y - 3}`);
    // A date that is not a calendar date is shown as typed rather than guessed at.
    expect(row(build({ ...us.answers, birth_date: '2008-02-30' }), 'birth_date')?.value).toBe(
      '2008-02-30',
    );
  });

  it('shows every add-another block up to the saved count, the default being one', () => {
    const legacyBlocks = (view: AnswerView) =>
      view.pages.flatMap((p) => p.sections).filter((s) => s.block?.group === 'legacy');
    expect(legacyBlocks(build(us.answers, {}))).toHaveLength(1);
    const three = legacyBlocks(build(us.answers, { addAnother: { legacy: 3 } }));
    expect(three.map((s) => s.block?.index)).toEqual([1, 2, 3]);
    expect(three.map((s) => s.title)).toEqual([
      'Relative 1 Who Attended Example State',
      'Relative 2 Who Attended Example State',
      'Relative 3 Who Attended Example State',
    ]);
    // A later block that holds answers shows even if the count was never saved (as on screen).
    const raised = build({ ...us.answers, legacy_2_first_name: 'Pat' }, {});
    expect(legacyBlocks(raised)).toHaveLength(2);
    // Never beyond the keys that exist.
    expect(legacyBlocks(build(us.answers, { addAnother: { legacy: 9 } }))).toHaveLength(4);
  });

  it('shows only the chosen tab of a tab group and says which', () => {
    const essay = build(complete.answers, complete);
    expect(row(essay, 'personal_statement_doc')).toBeUndefined();
    expect(row(essay, 'personal_statement_essay')).toMatchObject({
      kind: 'long',
      tab: { group: 'Personal Statement', tab: 'Type Your Response' },
    });
    const section = essay.pages[1]?.sections.find((s) => s.id === 'personal-statement');
    expect(section?.tab).toBe('Type Your Response');
    // Two tab groups in one section: each row says which tab, the section does not.
    const majors = essay.pages[1]?.sections.find((s) => s.id === 'majors');
    expect(majors?.tab).toBeUndefined();
    expect(majors?.rows.filter((r) => r.tab).map((r) => r.tab?.group)).toEqual([
      'Honors College Statement',
      'Honors College Additional Statement',
    ]);

    // No saved choice and nothing answered: the default (upload) tab, empty for the applicant.
    const bare = build({ ...us.answers, personal_statement_essay: '' }, { tabs: {} });
    expect(row(bare, 'personal_statement_essay')).toBeUndefined();
    expect(row(bare, 'personal_statement_doc')).toMatchObject({
      kind: 'document',
      value: '',
      tab: { group: 'Personal Statement', tab: 'Upload a Document' },
    });
    // No saved choice but an answered essay: the essay tab, as the form shows it.
    expect(row(build(us.answers, { tabs: {} }), 'personal_statement_essay')?.value).toBe(
      us.answers.personal_statement_essay,
    );
    // The saved choice wins over an answer left on the other tab.
    const chosen = build(us.answers, { tabs: { personal_statement: 'upload' } });
    expect(row(chosen, 'personal_statement_essay')).toBeUndefined();
  });

  it('lists documents with name and size, in definition order', () => {
    const fixture = ANSWER_FIXTURES['add-another'];
    const view = build(fixture.answers, fixture);
    expect(row(view, 'personal_statement_doc')).toMatchObject({
      kind: 'document',
      value: 'personal-statement.pdf (140.0 KB)',
    });
    expect(view.documents).toEqual([
      {
        key: 'business_statement_doc',
        label:
          'In about 250 words, tell us why you want to pursue the accelerated three-year business track.',
        fileName: 'business-statement.docx',
        fileSize: 18_432,
      },
      expect.objectContaining({ key: 'honors_statement_doc', fileName: 'honors-essay.pdf' }),
      expect.objectContaining({ key: 'personal_statement_doc' }),
    ]);
    // A document record without an ANSWERED answer (removed, or its tab left) is not shown.
    const removed = build({ ...fixture.answers, personal_statement_doc: '' }, fixture);
    expect(removed.documents.map((d) => d.key)).not.toContain('personal_statement_doc');
    expect(row(removed, 'personal_statement_doc')?.value).toBe('');
    // A document on the tab not chosen is not listed either.
    const essayChosen = build(fixture.answers, {
      ...fixture,
      tabs: { ...fixture.tabs, personal_statement: 'essay' },
    });
    expect(essayChosen.documents.map((d) => d.key)).not.toContain('personal_statement_doc');
  });

  it('formats sizes as the upload widget, the print view and the PDF show them', () => {
    expect(formatDocumentSize(512)).toBe('512 B');
    expect(formatDocumentSize(12_288)).toBe('12.0 KB');
    expect(formatDocumentSize(12_595)).toBe('12.3 KB');
    expect(formatDocumentSize(1024 * 1024)).toBe('1.0 MB');
  });

  it('shows an autocomplete as the name with the school code', () => {
    const view = build(us.answers, us);
    expect(row(view, 'hs_name')?.value).toBe('Abraham Lincoln High School (CEEB 990001)');
    const typed = build({ ...us.answers, hs_ceeb: '' }, us);
    expect(row(typed, 'hs_name')?.value).toBe('Abraham Lincoln High School');
    // Codes are part of the name row, never rows of their own.
    expect(row(view, 'hs_ceeb')).toBeUndefined();
  });

  it('masks SSN and alien registration number and never shows them whole', () => {
    const fixture = ANSWER_FIXTURES['add-another'];
    const view = build(fixture.answers, fixture);
    expect(row(view, 'ssn')?.value).toBe('***-**-7890');
    expect(row(view, 'alien_registration_number')?.value).toBe('******6789');
    const text = JSON.stringify(view);
    expect(text).not.toContain('234-56');
    expect(text).not.toContain('A123456789');
    expect(maskIdentifier('123-45-6789')).toBe('***-**-6789');
    expect(maskIdentifier('1234')).toBe('****');
  });

  it('never shows a password-type question', () => {
    const definition: ApplicationDefinition = {
      pages: [
        {
          id: 'about',
          step: 1,
          title: 'About You',
          sections: [
            {
              id: 'secret',
              title: 'Secret',
              questions: [
                { key: 'pin', type: 'password', label: 'PIN' },
                { key: 'note', type: 'text', label: 'Note' },
              ],
            },
          ],
        },
      ],
      repeatGroups: [],
      tabGroups: [],
    };
    const view = build({ pin: 'hunter2', note: 'hello' }, {}, definition);
    expect(collectAnswerPairs(view)).toEqual([{ label: 'Note', value: 'hello' }]);
  });

  it('makes text areas long rows and keeps their line breaks', () => {
    const view = build(complete.answers, complete);
    expect(row(view, 'address_home_country')).toMatchObject({
      kind: 'long',
      value: 'Vasagatan 12\n411 24 Göteborg\nSweden',
    });
  });

  it('resolves {schoolName} and {shortSchoolName} in labels and titles', () => {
    const view = build(us.answers, us);
    expect(row(view, 'sibling_admission')?.label).toBe(
      'Has a brother or sister applied to or attended Example State University?',
    );
    expect(JSON.stringify(view)).not.toMatch(/\{\w+\}/);
  });

  describe('audience', () => {
    const sparse = withCompanions({
      ...us.answers,
      middle_name: '',
      legacy_first_name: '',
      legacy_relationship: '',
      legacy_grad_year: '',
      parent_2_first_name: 'Sam',
    });
    const extras = { addAnother: { parents: 2, legacy: 2 }, tabs: us.tabs };

    it('applicant: every visible question, unanswered ones empty', () => {
      const view = build(sparse, extras);
      expect(row(view, 'middle_name')?.value).toBe('');
      expect(row(view, 'preferred_name')?.value).toBe('');
      expect(sectionIds(view)).toEqual(
        expect.arrayContaining(['legacy-1', 'legacy-2', 'parent-2', 'test-sat']),
      );
      expect(row(view, 'legacy_middle_name')?.value).toBe('');
    });

    it('applicant copy: empty optional groups and later blocks left out, no tab labels', () => {
      const view = build(sparse, { ...extras, applicantCopy: true });
      // A block or optional group they answered stays whole; empty ones are gone.
      expect(sectionIds(view)).toContain('parent-2');
      expect(sectionIds(view)).not.toContain('legacy-1');
      expect(sectionIds(view)).not.toContain('legacy-2');
      expect(row(view, 'middle_name')?.value).toBe('');
      const essay = view.pages[1]?.sections.find((s) => s.id === 'personal-statement');
      expect(essay?.tab).toBeUndefined();
      expect(essay?.rows.some((r) => r.tab)).toBe(false);
    });

    // Issue 17: an applicant who left Parent 1/Guardian 1 blank got a page of eleven bare
    // labels under that heading in their PDF copy.
    it('applicant copy: a first block or group with nothing answered is left out too', () => {
      const noParent = Object.fromEntries(
        Object.entries(sparse).filter(([key]) => !key.startsWith('parent_')),
      );
      const copy = build(noParent, { ...extras, applicantCopy: true });
      expect(sectionIds(copy)).not.toContain('parent-1');
      expect(sectionIds(copy)).not.toContain('parent-2');
      // A group with one answer stays whole, empty rows included.
      expect(row(copy, 'middle_name')?.value).toBe('');
      // Staff still see the empty first block: what was left blank is information to them.
      expect(sectionIds(build(noParent, { ...extras, audience: 'service' }))).toContain('parent-1');
    });

    it('service: answered rows only in optional groups and later add-another blocks', () => {
      const view = build(sparse, { ...extras, audience: 'service' });
      // Required groups keep their empty rows: staff see what was left blank.
      expect(row(view, 'middle_name')?.value).toBe('');
      expect(row(view, 'parent_prefix')?.value).toBe('');
      // Later blocks: answered rows only.
      const parent2 = view.pages[0]?.sections.find((s) => s.id === 'parent-2');
      expect(parent2?.rows.map((r) => r.key)).toEqual(['parent_2_first_name']);
      // Optional groups with nothing answered disappear.
      expect(sectionIds(view)).not.toContain('legacy-1');
      expect(sectionIds(view)).not.toContain('legacy-2');
      // Optional groups keep what was answered; an unticked box is not an answer.
      const ethnicity = view.pages[0]?.sections.find((s) => s.id === 'ethnicity');
      expect(ethnicity?.rows.map((r) => [r.key, r.value])).toEqual([
        ['ethnicity', 'No'],
        ['race_black', '[X]'],
        ['race_white', '[X]'],
      ]);
      const act = view.pages[1]?.sections.find((s) => s.id === 'test-act');
      expect(act?.rows.map((r) => r.key)).toEqual(['act_taken', 'act_plan_month']);
      // Never more than the applicant sees, in the same order.
      const applicant = collectAnswerPairs(build(sparse, extras));
      const service = collectAnswerPairs(view);
      let i = 0;
      for (const pair of service) {
        while (i < applicant.length && JSON.stringify(applicant[i]) !== JSON.stringify(pair)) i++;
        expect(i, JSON.stringify(pair)).toBeLessThan(applicant.length);
        i++;
      }
    });

    it('a complete application differs for staff only by unticked boxes in optional groups', () => {
      const service = collectAnswerPairs(
        build(complete.answers, { ...complete, audience: 'service' }),
      );
      const applicant = collectAnswerPairs(build(complete.answers, complete));
      expect(service).toEqual(applicant.filter((p) => p.value !== '[ ]'));
      expect(applicant.length - service.length).toBe(4);
    });
  });

  it('shows names, answers and file names without bidi control characters', () => {
    const fixture = ANSWER_FIXTURES['add-another'];
    const controls = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
    const documents = {
      ...fixture.documents,
      personal_statement_doc: {
        ...fixture.documents!.personal_statement_doc!,
        file_name: 'essay\u202Efdp.exe',
      },
    };
    const view = build(
      { ...fixture.answers, first_name: 'Ada\u202E', city: '\u2067Paris\u2069\u200F' },
      { ...fixture, documents },
    );
    expect(row(view, 'first_name')?.value).toBe('Ada');
    expect(row(view, 'city')?.value).toBe('Paris');
    expect(row(view, 'personal_statement_doc')?.value).toBe('essayfdp.exe (140.0 KB)');
    expect(view.documents.map((d) => d.fileName).join('')).not.toMatch(controls);
    expect(collectAnswerPairs(view).some((p) => controls.test(p.value))).toBe(false);
    expect(formatApplicantName({ first_name: '\u202EAda', last_name: 'Love\u061Clace' })).toBe(
      'Ada Lovelace',
    );
  });

  it('ignores stored values that are not strings', () => {
    const odd = { ...us.answers, middle_name: 42, race_asian: null } as unknown as Record<
      string,
      string
    >;
    const view = build(odd, us);
    expect(row(view, 'middle_name')?.value).toBe('');
    expect(row(view, 'race_asian')?.value).toBe('[ ]');
  });

  it('collectAnswerPairs lists every row in reading order', () => {
    const view = build(complete.answers, complete);
    const pairs = collectAnswerPairs(view);
    expect(pairs).toEqual(rows(view).map((r) => ({ label: r.label, value: r.value })));
    expect(pairs.length).toBeGreaterThan(150);
  });

  it('builds a complete application well under 5 ms', () => {
    for (let i = 0; i < 20; i++) build(complete.answers, complete);
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const start = performance.now();
      build(complete.answers, complete);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[25] ?? Infinity;
    // Generous bound for a loaded CI machine; the README records the measured figure.
    expect(median).toBeLessThan(5);
  });
});
