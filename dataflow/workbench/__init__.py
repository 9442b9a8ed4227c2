"""The research workbench: batch runs and their engines, scoring, reports, run comparison, evidence-axis
tuning, the learned family model's fitting, stage-graph views and the knowledge-path evaluation."""
