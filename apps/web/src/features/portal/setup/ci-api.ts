import { BADGE_PATHS, badgeResponse, type BadgeResponse } from '@fullstop/contracts';
import { portalApi } from '../store/portal-api.ts';

/** The client's status badge (Setup → CI and badge). */
export const ciApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    getBadge: build.query<BadgeResponse, void>({
      query: () => ({ url: BADGE_PATHS.badge, schema: badgeResponse }),
    }),
    regenerateBadge: build.mutation<BadgeResponse, void>({
      query: () => ({ url: BADGE_PATHS.regenerate, method: 'POST', schema: badgeResponse }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(ciApi.util.upsertQueryData('getBadge', undefined, data));
        } catch (error) {
          console.error('Could not regenerate the badge', error);
        }
      },
    }),
  }),
});

export const { useGetBadgeQuery, useRegenerateBadgeMutation } = ciApi;
