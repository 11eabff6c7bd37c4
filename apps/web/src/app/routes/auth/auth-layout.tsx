import { Outlet } from 'react-router';
import { AccountPopover } from '../../../features/account/components/account-popover';
import { Frame } from '../../../features/layout/components/frame';

export function AuthLayout() {
  return (
    <Frame headerActions={<AccountPopover />}>
      <Outlet />
    </Frame>
  );
}
