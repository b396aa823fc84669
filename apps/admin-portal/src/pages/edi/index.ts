export { default as PartnersPage } from './partners/PartnersPage';
export { default as CreatePartnerPage } from './partners/CreatePartnerPage';
export { default as EditPartnerPage } from './partners/EditPartnerPage';
export { default as PartnerDetailPage } from './partners/PartnerDetailPage';
export { default as DocumentPage } from './documents/DocumentPage';
