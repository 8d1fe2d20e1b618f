import type { Metric } from 'web-vitals';

export type VitalsHandler = (metric: Metric) => void;

/**
 * Reports the page's Core Web Vitals to `onMetric`. Without a handler (the default, as in the spec) it does
 * nothing and the web-vitals library is never downloaded.
 */
export function reportWebVitals(onMetric?: VitalsHandler): void {
  if (!onMetric) return;
  void import('web-vitals').then(({ onCLS, onFCP, onINP, onLCP, onTTFB }) => {
    onCLS(onMetric);
    onFCP(onMetric);
    onINP(onMetric);
    onLCP(onMetric);
    onTTFB(onMetric);
  });
}

/** Sends each metric as a small JSON beacon; the endpoint must be same-origin (the CSP allows only 'self'). */
export function beaconHandler(endpoint: string): VitalsHandler {
  return (metric) => {
    const body = JSON.stringify({
      name: metric.name,
      value: metric.value,
      rating: metric.rating,
      id: metric.id,
      navigationType: metric.navigationType,
      path: location.pathname,
    });
    if (!navigator.sendBeacon?.(endpoint, new Blob([body], { type: 'application/json' }))) {
      void fetch(endpoint, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } });
    }
  };
}

/**
 * The handler chosen at build time: VITE_WEB_VITALS_ENDPOINT="/some/path" beacons metrics there,
 * VITE_WEB_VITALS_ENDPOINT="console" logs them; unset means no reporting.
 */
export function configuredVitalsHandler(setting = import.meta.env.VITE_WEB_VITALS_ENDPOINT as string | undefined): VitalsHandler | undefined {
  if (!setting) return undefined;
  if (setting === 'console') return (metric) => console.info('[web-vitals]', metric.name, metric.value, metric.rating);
  return beaconHandler(setting);
}
