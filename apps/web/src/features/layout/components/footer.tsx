import { useState } from 'react';
import { Anchor, Group, Text } from '@mantine/core';
import { HelpModal } from './help-modal';
import { PrivacyModal } from './privacy-modal';
import classes from './footer.module.css';
import { getPartner } from '../../../shared/lib/partner';

type OpenModal = 'help' | 'privacy' | null;

/** Postal address, Help and Privacy, and the copyright for the current year (SPEC §1). */
export function Footer() {
  const [openModal, setOpenModal] = useState<OpenModal>(null);
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
          <Anchor component="button" type="button" onClick={() => setOpenModal('help')}>
            Help
          </Anchor>
          <Anchor component="button" type="button" onClick={() => setOpenModal('privacy')}>
            Privacy
          </Anchor>
        </Group>
        <Text size="sm" className={classes.copyright}>
          © {new Date().getFullYear()} {partner.schoolName}. All rights reserved.
        </Text>
      </div>
      <HelpModal opened={openModal === 'help'} onClose={close} />
      <PrivacyModal opened={openModal === 'privacy'} onClose={close} />
    </footer>
  );
}
