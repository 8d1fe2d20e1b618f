/** The spec's service lists (section 1), item by item. */
export const WEB_SERVICES = [
  { title: 'Functionality and usability', text: 'Every journey works as intended and makes sense to a first-time user.' },
  { title: 'Performance', text: 'Page speed and Core Web Vitals measured on every release.' },
  { title: 'Accessibility to WCAG', text: 'Automated and manual checks against WCAG 2.x A and AA.' },
  { title: 'Security', text: 'Headers, cookies, TLS and an active scan of your public surface.' },
  { title: 'Load', text: 'Realistic traffic with average, p95 and failure rates against your thresholds.' },
  { title: 'API', text: 'Status codes, payloads and latency of the endpoints your app depends on.' },
  { title: 'Automated regression', text: 'Yesterday\u2019s features keep working after today\u2019s deployment.' },
  { title: 'Compatibility across devices, OS and networks', text: 'Browsers, screen sizes, operating systems and slow connections.' },
] as const;

export const MOBILE_SERVICES = [
  { title: 'Functionality and usability', text: 'Your Android and iOS builds, tested on the flows that matter.' },
  { title: 'Performance', text: 'Start-up time, responsiveness and resource use.' },
  { title: 'Browser testing on mobile', text: 'Your web app in the mobile browsers your customers use.' },
  { title: 'Automated UI testing', text: 'Scripted UI journeys on every build you upload.' },
] as const;

export const EXTRAS = [
  'Manual testing when a feature is not automated yet',
  'Payment testing with sandbox cards',
  'Tests updated whenever your developers change things',
  'Satisfaction guarantee: free retest of issues within scope after deployment',
] as const;
