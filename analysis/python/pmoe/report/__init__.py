"""The report pages: the evidence a rule reads (evidence), the claim rules of Chowdhury et al.
(claims) and Chen et al. (chen_claims), the HTML page renderer (page) and the script that
puts them together (paper_report)."""
