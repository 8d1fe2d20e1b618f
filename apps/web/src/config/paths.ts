export { paths, type PathName } from '@fullstop/contracts';
