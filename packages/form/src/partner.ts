// The institution's details (SPEC §3 "Partner configuration"). One typed default for an example
// university; a deployment overrides any part of it with a JSON file named in the service config.

export interface PartnerConfig {
  /** Full name, e.g. in the footer and the PDF cover. */
  schoolName: string;
  /** Used in labels such as "What do you plan to major in at {short school name}?" */
  shortSchoolName: string;
  admissionsOfficeName: string;
  postalAddress: { lines: string[]; city: string; state: string; zip: string };
  admissionPhone: string;
  admissionEmail: string;
  helpEmail: string;
  /** Subject line prefilled in the help e-mail link. */
  helpEmailSubject: string;
  helpPartnerName: string;
  /** Text-area character limit for essays (SPEC §9: 7000). */
  textAreaLimit: number;
  /** CEEB and other institutional codes. */
  schoolCodes: { ceeb: string; act: string; toefl: string };
  links: { privacyPolicy: string; website: string; adobeReader: string };
  /** The date-window alert: shown between these ISO dates (inclusive), when both are set. */
  alert: { start: string | null; end: string | null; message: string };
}

export const DEFAULT_PARTNER: PartnerConfig = {
  schoolName: 'Example State University',
  shortSchoolName: 'Example State',
  admissionsOfficeName: 'Office of Undergraduate Admissions',
  postalAddress: {
    lines: ['Office of Undergraduate Admissions', '100 University Avenue'],
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
  },
  admissionPhone: '(217) 555-0100',
  admissionEmail: 'admissions@example.edu',
  helpEmail: 'apply-help@example.org',
  helpEmailSubject: 'Technical help with my Example State University application',
  helpPartnerName: 'Application Support',
  textAreaLimit: 7000,
  schoolCodes: { ceeb: '1234', act: '5678', toefl: '1234' },
  links: {
    privacyPolicy: 'https://www.example.edu/privacy',
    website: 'https://www.example.edu',
    adobeReader: 'https://get.adobe.com/reader/',
  },
  alert: { start: null, end: null, message: '' },
};
