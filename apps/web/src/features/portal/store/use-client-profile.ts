import { skipToken } from '@reduxjs/toolkit/query/react';
import { useAppSelector } from './hooks.ts';
import { useGetProfileQuery } from './profile-api.ts';

/** The signed-in client's profile (website, API key, uploads); an operator account has none. */
export function useClientProfile() {
  const clientId = useAppSelector((state) => state.session.userData?.clientId ?? null);
  const query = useGetProfileQuery(clientId ?? skipToken);
  return { clientId, ...query };
}
