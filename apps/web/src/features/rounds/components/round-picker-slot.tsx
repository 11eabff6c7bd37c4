import { lazy, Suspense } from 'react';

// The picker (its list, the checkbox, the mutation) is wanted on /completion and once a round has
// closed: a first visit to a form page never downloads it (apps/web/README.md, bundle budget).
const RoundPicker = lazy(() =>
  import('./round-picker').then((module) => ({ default: module.RoundPicker })),
);

/** "Apply to another round", loaded when first shown; nothing while it loads. */
export function RoundPickerSlot() {
  return (
    <Suspense fallback={null}>
      <RoundPicker />
    </Suspense>
  );
}
