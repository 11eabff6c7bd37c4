import { CANADA, CA_PROVINCES, COUNTRIES, USA, US_STATES } from '@admissions/form';

const countryNames = new Map(COUNTRIES.map((c) => [c.value, c.label]));
const stateNames = {
  [USA]: new Map(US_STATES.map((s) => [s.value, s.label])),
  [CANADA]: new Map(CA_PROVINCES.map((s) => [s.value, s.label])),
};

/** The label the country select shows for a stored code ('' when unknown). */
export function describeCountry(code: string): string {
  return countryNames.get(code) ?? '';
}

export function isKnownCountry(code: string): boolean {
  return code !== '' && countryNames.has(code);
}

/** The state select only has options for the USA and Canada; elsewhere the state is free text. */
export function describeState(country: string, state: string): string {
  const names = country === USA || country === CANADA ? stateNames[country] : undefined;
  return names?.get(state) ?? '';
}

export function isKnownState(country: string, state: string): boolean {
  if (country !== USA && country !== CANADA) return true;
  return stateNames[country].has(state);
}
