import {
  Anchor,
  createTheme,
  type ExtendComponent,
  type MantineColorsTuple,
  type MantineThemeComponent,
  type ModalFactory,
} from '@mantine/core';

// Brown, amber and grey (docs/product.md). Shade 7 is the filled shade everywhere so that white text on
// any filled colour and any shade-7+ text on white pass WCAG AA; the contrast test holds us to it.
const brown: MantineColorsTuple = [
  '#f7f1ec',
  '#eadfd5',
  '#d5bfab',
  '#bf9d80',
  '#a97f5d',
  '#8f6545',
  '#7a5236',
  '#654229',
  '#50331f',
  '#3b2516',
];

const amber: MantineColorsTuple = [
  '#fff8e1',
  '#ffecb3',
  '#ffe082',
  '#ffd54f',
  '#ffca28',
  '#ffc107',
  '#f2a900',
  '#8a5d00',
  '#6e4a00',
  '#523700',
];

const grey: MantineColorsTuple = [
  '#f7f7f7',
  '#ececec',
  '#dcdcdc',
  '#c4c4c4',
  '#a3a3a3',
  '#858585',
  '#6b6b6b',
  '#545454',
  '#3d3d3d',
  '#262626',
];

// Mantine derives its error colour from `red`; this one stays readable on white and on brown.0.
const red: MantineColorsTuple = [
  '#fdecea',
  '#f9d0cc',
  '#f2a59e',
  '#ea776d',
  '#e05246',
  '#d23a2e',
  '#c22f24',
  '#b3261e',
  '#8c1d17',
  '#661510',
];

// Mantine's success colour; the stock green is too light for text on white.
const green: MantineColorsTuple = [
  '#eaf5ec',
  '#cfe8d4',
  '#a6d4b0',
  '#7cbf8b',
  '#55ab69',
  '#3a9550',
  '#2b7f40',
  '#1f6b2c',
  '#185522',
  '#113e18',
];

/** The colour roles of docs/product.md, as concrete values other code and the contrast test use. */
export const COLOR_ROLES = {
  primary: brown[7],
  secondary: amber[6],
  accent: amber[7],
  neutral: grey[7],
  white: '#ffffff',
  error: red[7],
  disabled: grey[6],
  /** Body text; the darkest brown reads warmer than pure black. */
  text: brown[9],
  /** Tinted background for the header and footer bands. */
  surface: brown[0],
} as const;

export type ColorRole = keyof typeof COLOR_ROLES;

export const BREAKPOINTS_PX = { mobile: 675, tablet: 900 } as const;

/** Media queries for the two breakpoints (docs/product.md) (max-width: below or at the breakpoint). */
export const MEDIA = {
  mobile: `(max-width: ${BREAKPOINTS_PX.mobile}px)`,
  tablet: `(max-width: ${BREAKPOINTS_PX.tablet}px)`,
} as const;

/** Modal widths (docs/screens-and-routes.md): desktop and tablet. */
export const MODAL_SIZES = {
  xs: { desktop: '30rem', tablet: '30rem' },
  s: { desktop: '60rem', tablet: '70vw' },
  m: { desktop: '80vw', tablet: '90vw' },
} as const;

export type ModalSize = keyof typeof MODAL_SIZES;

/** Spinner sizes (docs/screens-and-routes.md). */
export const LOADING_SIZES = { xs: '0.4rem', s: '0.8rem', m: '2rem' } as const;

// What Modal.extend would return, written out: calling Modal.extend here would put Mantine's
// modal (ScrollArea, focus trap, scroll lock, floating-ui) into every page's first visit.
const MODAL_THEME: MantineThemeComponent = {
  styles: { title: { fontWeight: 700, fontSize: 'var(--mantine-h3-font-size)' } },
} satisfies ExtendComponent<ModalFactory>;

const FONT_STACK = 'Arial, "Helvetica Neue", Helvetica, sans-serif';

const em = (px: number) => `${px / 16}em`;

export const theme = createTheme({
  colors: { brown, amber, grey, gray: grey, red, green },
  primaryColor: 'brown',
  primaryShade: 7,
  autoContrast: true,
  white: COLOR_ROLES.white,
  black: COLOR_ROLES.text,
  fontFamily: FONT_STACK,
  fontFamilyMonospace: 'Menlo, Consolas, "Courier New", monospace',
  headings: { fontFamily: FONT_STACK },
  // Mantine expects the xs–xl keys; sm and md are the mobile and tablet breakpoints (docs/product.md).
  breakpoints: {
    xs: em(480),
    sm: em(BREAKPOINTS_PX.mobile),
    md: em(BREAKPOINTS_PX.tablet),
    lg: em(1200),
    xl: em(1440),
    mobile: em(BREAKPOINTS_PX.mobile),
    tablet: em(BREAKPOINTS_PX.tablet),
  },
  focusRing: 'auto',
  defaultRadius: 'sm',
  components: {
    // Links inside text must not rely on colour alone (WCAG 1.4.1).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    Modal: MODAL_THEME,
  },
  other: { colorRoles: COLOR_ROLES, loadingSizes: LOADING_SIZES, modalSizes: MODAL_SIZES },
});
