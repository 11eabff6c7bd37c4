import { useEffect, useRef, useState } from 'react';
import { Combobox, Loader, TextInput, useCombobox } from '@mantine/core';
import type { LookupCategory, LookupItem, LookupRecord } from '@admissions/api-contract';
import { fetchLookupItems, fetchLookupRecord } from '../api/lookup';

// docs/limits.md: debounce 200 ms, at most 500 ms between searches while typing goes on.
const DEBOUNCE_MS = 200;
const MAX_WAIT_MS = 500;
const FREE_TEXT = '\u0000free-text';

export interface LookupAutocompleteProps {
  category: LookupCategory;
  /** The input's id (a question key, so summary links land on the input itself). */
  id?: string;
  /** Sized to what the field holds (a ZIP is short). */
  maxWidth?: string;
  label: string;
  /** The question's answer (the school name or the first address line). */
  value: string;
  /** Every typed change and the "Use: …" choice: free text, no record. */
  onChange: (text: string) => void;
  /**
   * A suggestion was picked: the record fills the companion fields (CEEB code, city, state, …).
   * `record` is null when fetching it failed; the picked label is kept as the answer then.
   */
  onSelect: (selection: { label: string; record: LookupRecord | null }) => void;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  maxLength?: number;
  description?: string;
  /**
   * Picking a suggestion leaves the field's text alone (onSelect fills it from the record): a
   * City or ZIP field shows "Springfield, IL 62701" as a suggestion but keeps only its own part.
   */
  keepTypedOnSelect?: boolean;
}

/** Calls `run` 200 ms after the last change, but no later than 500 ms after the first one. */
function useDebouncedSearch(text: string, run: (text: string) => void): void {
  const firstChange = useRef<number | null>(null);
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });
  useEffect(() => {
    const now = Date.now();
    firstChange.current ??= now;
    const wait = Math.min(DEBOUNCE_MS, Math.max(0, firstChange.current + MAX_WAIT_MS - now));
    const timer = setTimeout(() => {
      firstChange.current = null;
      runRef.current(text);
    }, wait);
    return () => clearTimeout(timer);
  }, [text]);
}

export function LookupAutocomplete(props: LookupAutocompleteProps) {
  const { category, label, value, onChange, onSelect } = props;
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [query, setQuery] = useState<string | null>(null);
  const [items, setItems] = useState<LookupItem[]>([]);
  // The text whose results `items` holds. Until the typed text's search has answered, the
  // dropdown says "Loading...": "No options" and "Use: …" for a search not yet run would flash
  // and then vanish when the debounced search starts.
  const [settled, setSettled] = useState<string | null>(null);
  const latest = useRef(0);

  useDebouncedSearch(query ?? '', (text) => {
    if (query === null) return;
    const request = ++latest.current;
    if (text.trim() === '') {
      setItems([]);
      setSettled(text);
      return;
    }
    void fetchLookupItems(category, text).then((found) => {
      if (request !== latest.current) return;
      setItems(found);
      setSettled(text);
    });
  });

  const loading = query !== null && query.trim() !== '' && query !== settled;
  const typed = value.trim();
  const offerFreeText = typed !== '' && !items.some((i) => i.text === typed);

  const choose = (optionValue: string) => {
    combobox.closeDropdown();
    if (optionValue === FREE_TEXT) {
      onChange(typed);
      return;
    }
    const item = items.find((i) => i.id === optionValue);
    if (!item) return;
    if (!props.keepTypedOnSelect) onChange(item.text);
    void fetchLookupRecord(category, item.id).then((record) =>
      onSelect({ label: item.text, record }),
    );
  };

  return (
    // Mantine keeps a combobox's dropdown mounted (hidden) by default; mounted, its floating
    // position is computed at once, which forces a style recalculation of the whole form page on
    // load. Mounted only while open, it costs nothing until used (aria-controls is set only then).
    <Combobox store={combobox} onOptionSubmit={choose} withinPortal={false} keepMounted={false}>
      <Combobox.Target>
        <TextInput
          // Only when given: an explicit undefined would override the props Combobox.Target sets.
          {...(props.id ? { id: props.id } : {})}
          {...(props.maxWidth ? { maw: props.maxWidth } : {})}
          label={label}
          description={props.description}
          value={value}
          error={props.error}
          required={props.required}
          disabled={props.disabled}
          maxLength={props.maxLength}
          autoComplete="off"
          rightSection={loading ? <Loader size={16} role="status" aria-label="Loading..." /> : null}
          onChange={(event) => {
            onChange(event.currentTarget.value);
            setQuery(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={typed === ''}>
        {/* A listbox may hold only options, so the loading and empty notes sit beside it. */}
        {loading ? <Combobox.Empty>Loading...</Combobox.Empty> : null}
        {!loading && items.length === 0 ? <Combobox.Empty>No options</Combobox.Empty> : null}
        {!loading && (items.length > 0 || offerFreeText) ? (
          <Combobox.Options aria-label="Suggestions">
            {items.map((item) => (
              <Combobox.Option value={item.id} key={item.id}>
                <div>{item.text}</div>
                {item.sub_text ? <div style={{ fontSize: '0.85em' }}>{item.sub_text}</div> : null}
              </Combobox.Option>
            ))}
            {offerFreeText ? (
              <Combobox.Option value={FREE_TEXT}>{`Use: ${typed}`}</Combobox.Option>
            ) : null}
          </Combobox.Options>
        ) : null}
      </Combobox.Dropdown>
    </Combobox>
  );
}
