import { Modal, type ModalProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MEDIA, MODAL_SIZES, type ModalSize } from '../../config/theme';

export interface AppModalProps extends Omit<ModalProps, 'size'> {
  /** SPEC §2 sizes; xs unless told otherwise. */
  size?: ModalSize;
}

/** Mantine's modal with the product's three widths, wider on tablets where space is tight. */
export function AppModal({ size = 'xs', ...props }: AppModalProps) {
  const isTablet = useMediaQuery(MEDIA.tablet) ?? false;
  const width = isTablet ? MODAL_SIZES[size].tablet : MODAL_SIZES[size].desktop;
  return <Modal size={width} centered {...props} />;
}
