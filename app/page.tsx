export default function Home() {
  return (
    <main>
      <h1>Offer Book Explorer</h1>
      <p>
        The read API lives under <a href="/v1">/v1</a>.
      </p>
    </main>
  );
}
