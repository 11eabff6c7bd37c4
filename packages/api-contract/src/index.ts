export * from './common';
export * from './auth';
export * from './profile';
export * from './routes';
export * from './messages';
export * from './application';
export * from './documents';
export * from './lookup';
