import { lazy, Suspense, useState } from 'react';
import { Anchor, Group, Text } from '@mantine/core';
import classes from './footer.module.css';
import { getPartner } from '../../../shared/lib/partner';

type OpenModal = 'help' | 'privacy' | null;

// The dialogs (Mantine's modal, focus trap, scroll lock) load when a visitor reaches for a link,
// not with every page: pointing at or focusing the link starts the download, so the click
// rarely waits for it.
const loadHelpModal = () => import('./help-modal');
const loadPrivacyModal = () => import('./privacy-modal');
const HelpModal = lazy(() => loadHelpModal().then((m) => ({ default: m.HelpModal })));
const PrivacyModal = lazy(() => loadPrivacyModal().then((m) => ({ default: m.PrivacyModal })));

/** Postal address, Help and Privacy, and the copyright for the current year (docs/product.md). */
export function Footer() {
  const [openModal, setOpenModal] = useState<OpenModal>(null);
  // Once opened, a dialog stays rendered so that closing it plays Mantine's transition.
  const [used, setUsed] = useState<ReadonlySet<Exclude<OpenModal, null>>>(new Set());
  const open = (modal: Exclude<OpenModal, null>) => {
    setUsed((before) => new Set(before).add(modal));
    setOpenModal(modal);
  };
  const partner = getPartner();
  const { postalAddress } = partner;
  const close = () => setOpenModal(null);

  return (
    <footer className={classes.footer}>
      <div className={classes.inner}>
        <address className={classes.address} aria-label="Postal address">
          <Text fw={700} size="sm">
            {partner.schoolName}
          </Text>
          {postalAddress.lines.map((line) => (
            <Text key={line} size="sm">
              {line}
            </Text>
          ))}
          <Text size="sm">
            {postalAddress.city}, {postalAddress.state} {postalAddress.zip}
          </Text>
        </address>
        <Group gap="md" className={classes.links}>
          <Anchor
            component="button"
            type="button"
            onClick={() => open('help')}
            onPointerEnter={() => void loadHelpModal()}
            onFocus={() => void loadHelpModal()}
          >
            Help
          </Anchor>
          <Anchor
            component="button"
            type="button"
            onClick={() => open('privacy')}
            onPointerEnter={() => void loadPrivacyModal()}
            onFocus={() => void loadPrivacyModal()}
          >
            Privacy
          </Anchor>
        </Group>
        <Text size="sm" className={classes.copyright}>
          © {new Date().getFullYear()} {partner.schoolName}. All rights reserved.
        </Text>
      </div>
      <Suspense fallback={null}>
        {used.has('help') ? <HelpModal opened={openModal === 'help'} onClose={close} /> : null}
        {used.has('privacy') ? (
          <PrivacyModal opened={openModal === 'privacy'} onClose={close} />
        ) : null}
      </Suspense>
    </footer>
  );
}
