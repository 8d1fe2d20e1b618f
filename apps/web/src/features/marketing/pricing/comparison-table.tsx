const ROWS = [
  { aspect: 'Cost', inHouse: '$48,000 to $72,000 a year for one QA engineer', us: '$200 per feature per month' },
  { aspect: 'Coverage', inHouse: 'What one person has time for', us: '3 testing scenarios per feature' },
  { aspect: 'Time to start', inHouse: 'Weeks of hiring and onboarding', us: 'Start within 48 hours' },
  { aspect: 'Commitment', inHouse: 'Salary, benefits and notice periods', us: 'Month to month' },
  { aspect: 'Test runs', inHouse: 'Limited by working hours', us: 'Unlimited, via portal or API' },
  { aspect: 'Tooling and upkeep', inHouse: 'Yours to buy and maintain', us: 'Included, tests updated as you change' },
] as const;

export function ComparisonTable() {
  return (
    <div className="compare-wrap">
      <table className="compare">
        <caption className="visually-hidden">In-House QA compared with Fullstop</caption>
        <thead>
          <tr>
            <td />
            <th scope="col">In-House QA</th>
            <th scope="col" className="compare__us">Fullstop</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.aspect}>
              <th scope="row">{row.aspect}</th>
              <td>{row.inHouse}</td>
              <td className="compare__us">{row.us}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
