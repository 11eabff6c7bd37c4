export * from './auth-rules';
export * from './partner';
