import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useIdleConfig } from '../../../config/idle';
import { AppModal } from '../../../shared/ui/app-modal';
import { useIdleLogout } from '../api/logout';
import { IDLE_TEXTS } from './idle-texts';

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel', 'scroll'];

/** Watches activity and warns before the time-out (docs/behaviour.md); loaded by IdleTimeout. */
export function IdleWatcher() {
  const { timeoutMs, warningMs, tickMs } = useIdleConfig();
  const idleLogout = useIdleLogout();
  const [warningOpen, setWarningOpen] = useState(false);
  // Refs, not state: activity events arrive far too often to re-render on each one.
  const lastActivityAt = useRef(0);
  const warningShown = useRef(false);
  const loggingOut = useRef(false);

  const endSession = () => {
    if (loggingOut.current) return;
    loggingOut.current = true;
    setWarningOpen(false);
    idleLogout.mutate();
  };
  const logOutNow = useEffectEvent(endSession);

  // Compares wall-clock time rather than trusting timers, which stall while a laptop sleeps.
  const checkClock = useEffectEvent(() => {
    const idleFor = Date.now() - lastActivityAt.current;
    if (idleFor >= timeoutMs) {
      logOutNow();
    } else if (idleFor >= timeoutMs - warningMs && !warningShown.current) {
      warningShown.current = true;
      setWarningOpen(true);
    }
  });

  const recordActivity = useEffectEvent(() => {
    if (Date.now() - lastActivityAt.current >= timeoutMs) {
      logOutNow();
      return;
    }
    // Once warned, only an explicit answer in the dialog counts as staying.
    if (!warningShown.current) lastActivityAt.current = Date.now();
  });

  useEffect(() => {
    lastActivityAt.current = Date.now();
    const onActivity = () => recordActivity();
    const onVisibility = () => {
      if (document.visibilityState === 'visible') checkClock();
    };
    for (const name of ACTIVITY_EVENTS) {
      window.addEventListener(name, onActivity, { passive: true, capture: true });
    }
    document.addEventListener('visibilitychange', onVisibility);
    const timer = window.setInterval(() => checkClock(), tickMs);
    return () => {
      for (const name of ACTIVITY_EVENTS) {
        window.removeEventListener(name, onActivity, { capture: true });
      }
      document.removeEventListener('visibilitychange', onVisibility);
      window.clearInterval(timer);
    };
  }, [tickMs]);

  const stay = () => {
    lastActivityAt.current = Date.now();
    warningShown.current = false;
    setWarningOpen(false);
  };

  return (
    <AppModal
      opened={warningOpen}
      onClose={stay}
      title={IDLE_TEXTS.title}
      closeOnClickOutside={false}
    >
      <Stack gap="md">
        <Text>{IDLE_TEXTS.body}</Text>
        <Button onClick={stay} data-autofocus>
          {IDLE_TEXTS.stay}
        </Button>
        <Button variant="outline" color="red" onClick={endSession}>
          {IDLE_TEXTS.leave}
        </Button>
      </Stack>
    </AppModal>
  );
}
