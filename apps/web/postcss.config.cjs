// Mantine's mixins (light/dark, rem, breakpoints) in our CSS modules.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'breakpoint-mobile': '42.1875em',
        'breakpoint-tablet': '56.25em',
      },
    },
  },
};
