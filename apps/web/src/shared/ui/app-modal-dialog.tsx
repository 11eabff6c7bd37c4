import { Modal } from '@mantine/core';
import { useMediaQuery, useMounted } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { MEDIA, MODAL_SIZES, type ModalSize } from '../../config/theme';

/** AppModal's props: here, in the lazily loaded file, so that this file need not import AppModal's. */
export interface AppModalProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  /** docs/screens-and-routes.md sizes; xs unless told otherwise. */
  size?: ModalSize;
  closeOnClickOutside?: boolean;
  children: ReactNode;
}

/**
 * Mantine's modal with the product's three widths (wider on tablets, where space is tight),
 * a named close button, and a plain header element: a <header> inside the portalled dialog
 * would read as a second page banner. Loaded by AppModal when a dialog first opens.
 */
export function AppModalDialog({
  opened,
  onClose,
  title,
  size = 'xs',
  closeOnClickOutside = true,
  children,
}: AppModalProps) {
  // AppModal mounts this already open on a first open; closed for the first commit, Mantine
  // runs its opening transition as for a modal that was mounted all along.
  const settled = useMounted();
  const isTablet = useMediaQuery(MEDIA.tablet) ?? false;
  const width = isTablet ? MODAL_SIZES[size].tablet : MODAL_SIZES[size].desktop;
  return (
    <Modal.Root
      opened={opened && settled}
      onClose={onClose}
      size={width}
      centered
      closeOnClickOutside={closeOnClickOutside}
    >
      <Modal.Overlay />
      <Modal.Content>
        <Modal.Header component="div">
          <Modal.Title>{title}</Modal.Title>
          <Modal.CloseButton aria-label="Close dialog" />
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
