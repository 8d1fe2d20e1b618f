// The mobile devices feature's face: what other features may use of it. Everything else in this folder is its own.
export { addProviderLinks, appiumEndpointFor, deviceSessionsFor, endMobileAttempt } from './service.ts';
export { addCloudCellLinks, browserCloudFor, cloudCellSessionsFor, cloudDevicesNotOffered, endCloudCellAttempt, type CloudDeviceIssue } from './browser-clouds.ts';
