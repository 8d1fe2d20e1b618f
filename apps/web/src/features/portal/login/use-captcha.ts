import { useState } from 'react';
import { captchaMatches, generateCaptcha } from '@/lib/captcha.ts';

/**
 * A captcha code and what the user typed; `renew` draws a new code and empties the input, and `verify` tells
 * whether the input matches, drawing a new code when it does not.
 */
export function useCaptcha() {
  const [code, setCode] = useState(() => generateCaptcha());
  const [input, setInput] = useState('');
  const renew = () => {
    setCode(generateCaptcha());
    setInput('');
  };
  const verify = (): boolean => {
    if (captchaMatches(input, code)) return true;
    renew();
    return false;
  };
  return { code, input, setInput, renew, verify };
}
