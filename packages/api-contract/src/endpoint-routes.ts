// The method and path of every endpoint, one export each: "METHOD /path". The only owner of an
// endpoint's URL. Re-exported as the namespace ENDPOINT_ROUTES, so the SPA's bundle holds only
// the routes it calls (a member of a namespace is tree-shaken like a named import), and no
// schema: endpoints.ts adds the TypeBox schemas, summaries and error codes the server needs.
// The staff area's routes live in their own file, so they load with the staff pages' code.
export * from './staff-endpoint-routes';

// Operations
export const health = 'GET /health';
export const readPartner = 'GET /public/partner';

// Accounts
export const signup = 'POST /public/signup';
export const confirm = 'POST /public/confirm';
export const resendConfirm = 'POST /public/resend-confirm';
export const login = 'POST /public/login';
export const forgotPassword = 'POST /public/forgot-password';
export const resetPassword = 'POST /public/reset-password';
export const logout = 'GET /api/logout';

// The application
export const readProfile = 'GET /api/profile';
export const readApplications = 'GET /api/applications';
export const chooseApplication = 'PUT /api/application';
export const saveAnswers = 'PUT /api/answer';
export const saveLastPage = 'PUT /api/last-page';
export const advanceWebStatus = 'POST /api/web-status';
export const saveValidations = 'POST /api/validations';
export const submit = 'POST /api/submit';
export const readAddAnother = 'GET /api/add-another';
export const saveAddAnother = 'PUT /api/add-another';
export const readTabs = 'GET /api/tabs';
export const chooseTab = 'PUT /api/tabs';
export const readTemporaryAnswers = 'GET /public/tmp';

// Documents (`:key` is a file question, `*_doc`)
export const createUploadUrl = 'POST /api/presigned-url';
export const startConversion = 'POST /api/pdf/document-answer/:key';
export const readConversion = 'GET /api/pdf/document-answer/:key';
export const forgetConversion = 'DELETE /api/pdf/document-answer/:key';
export const readDocumentAnswers = 'GET /api/document-answer';
export const deleteDocument = 'DELETE /api/document-answer/:key';
export const readDocumentThumbnail = 'GET /api/document-answer/:key/thumbnail';

// After submit: the checklist, recommenders, uploads of requested items (issue #30)
export const readChecklist = 'GET /api/checklist';
export const addRecommender = 'POST /api/recommenders';
export const updateRecommender = 'PUT /api/recommenders/:id';
export const removeRecommender = 'DELETE /api/recommenders/:id';
export const remindRecommender = 'POST /api/recommenders/:id/remind';
export const uploadChecklistItem = 'POST /api/checklist/:item/document';
// The recommender's page: the link's token is their only credential.
export const readRecommendation = 'GET /public/recommendations/:token';
export const submitRecommendation = 'POST /public/recommendations/:token';

// The applicant's application PDF
export const requestApplicationPdf = 'GET /api/pdf';
export const downloadApplicationPdf = 'GET /api/pdf/file';

// Staff print view and PDF with a service token
export const readServicePrint = 'GET /service/tmp-pdf';
export const downloadServicePdf = 'GET /service/pdf';

// Lookups
export const lookupFind = 'GET /lookup/find';
