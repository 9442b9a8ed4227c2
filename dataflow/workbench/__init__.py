"""The research workbench: batch runs and their engines, scoring, reports, run comparison, evidence-axis
tuning, the learned family model's fitting, stage-graph views and the knowledge-path evaluation."""

QUESTION_WEIGHT = 0.35
"""What a row of a product-question set counts in the learned family model's prior (learned.prior_shift): such sets
hold a sixth of the fitted rows, all product questions, but the robot does not hear product questions that often.
Chosen on the fit and untuned sets together (0, 0.35 and the fitted prior compared in session 63); the model's
weights do not depend on it. Kept here, free of imports, so that `a2a learn --help` shows it without loading numpy."""
