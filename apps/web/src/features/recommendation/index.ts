// The recommender's page (issue #30): its route module renders it in the frame.
export { RecommendationPage } from './components/recommendation-page';
