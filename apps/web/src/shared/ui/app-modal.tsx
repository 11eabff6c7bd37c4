import type { ReactNode } from 'react';
import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MEDIA, MODAL_SIZES, type ModalSize } from '../../config/theme';

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
 * would read as a second page banner.
 */
export function AppModal({
  opened,
  onClose,
  title,
  size = 'xs',
  closeOnClickOutside = true,
  children,
}: AppModalProps) {
  const isTablet = useMediaQuery(MEDIA.tablet) ?? false;
  const width = isTablet ? MODAL_SIZES[size].tablet : MODAL_SIZES[size].desktop;
  return (
    <Modal.Root
      opened={opened}
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
